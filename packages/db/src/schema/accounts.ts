/** Accounts own things (ARCHITECTURE.md): every user has a personal account, every team is an account. */
import { bigint, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const accountKind = pgEnum('account_kind', ['personal', 'team']);

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: accountKind('kind').notNull(),
  name: text('name').notNull(),
  /** Rate-limit tier id (apps/gateway/config/tiers.json). */
  tier: text('tier').notNull().default('free'),
  /**
   * Cache of sum(ru_ledger.delta) for this account, updated in the same transaction as every ledger insert
   * (services/ledger/append-ru-ledger.ts). The ledger is the truth; tests compare the two.
   */
  ruBalance: bigint('ru_balance', { mode: 'number' }).notNull().default(0),
  /**
   * Ledger entries behind ru_balance (+1 with every entry): orders balance snapshots, so gateways sharing an RU pool
   * in Redis never replace a newer balance with an older one (apps/server/src/gateway/redis-balance.ts).
   */
  ruVersion: bigint('ru_version', { mode: 'number' }).notNull().default(0),
  /**
   * IANA zone whose local days the day rollups (usage_day*) use. Null until the first report call, which sets it
   * from the caller's zone and rebuilds the day rollups (services/reports/account-time-zone.ts).
   */
  timeZone: text('time_zone'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type TAccountRow = typeof accounts.$inferSelect;
