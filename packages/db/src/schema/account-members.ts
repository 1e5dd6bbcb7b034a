import { index, pgEnum, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { users } from './users';

/** Kept equal to TEAM_ROLES of packages/contract/src/teams/permissions.ts (a unit test compares them). */
export const memberRole = pgEnum('member_role', ['owner', 'admin', 'billing', 'viewer']);
export type TMemberRole = (typeof memberRole.enumValues)[number];

/** Who may act on an account, and how. A personal account has exactly its user as owner. */
export const accountMembers = pgTable(
  'account_members',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: memberRole('role').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.userId] }),
    index('account_members_user_idx').on(t.userId),
  ],
);
