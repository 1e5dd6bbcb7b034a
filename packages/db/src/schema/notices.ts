/** Notices (SPEC §3): stored per recipient user; team notices carry the team's account id. */
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { users } from './users';

export const notices = pgTable(
  'notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** the account the notice concerns (personal or team), when it concerns one */
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    /** set when the account is a team (SPEC §4 team notices) */
    teamId: uuid('team_id'),
    /** one of the contract's NOTICE_TYPES */
    type: text('type').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    expand: jsonb('expand').$type<Record<string, unknown>>().notNull().default({}),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('notices_user_created_idx').on(t.userId, t.createdAt),
    index('notices_account_type_created_idx').on(t.accountId, t.type, t.createdAt),
  ],
);

export type TNoticeRow = typeof notices.$inferSelect;
