/** Accounts own things (ARCHITECTURE.md): every user has a personal account, every team is an account. */
import { pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const accountKind = pgEnum('account_kind', ['personal', 'team']);

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: accountKind('kind').notNull(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type TAccountRow = typeof accounts.$inferSelect;
