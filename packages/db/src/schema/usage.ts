/**
 * Usage recorded by the gateway. One row per (key, chain, method, UTC minute), counters added on conflict, so
 * issue 4 can roll minutes up into hour and day tables with plain GROUP BY date_trunc(...).
 */
import {
  bigint,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { apiKeys } from './api-keys';

export const usageMinute = pgTable(
  'usage_minute',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    chain: text('chain').notNull(),
    method: text('method').notNull(),
    /** start of the UTC minute */
    minute: timestamp('minute', { withTimezone: true, mode: 'date' }).notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull().default(0),
    ru: bigint('ru', { mode: 'number' }).notNull().default(0),
    errors: bigint('errors', { mode: 'number' }).notNull().default(0),
    latencyMsSum: bigint('latency_ms_sum', { mode: 'number' }).notNull().default(0),
    latencyMsMax: integer('latency_ms_max').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.chain, t.method, t.minute] }),
    index('usage_minute_account_minute_idx').on(t.accountId, t.minute),
  ],
);

/**
 * Flushed usage batches by id. Inserted in the same transaction as the batch's usage rows and ledger debits:
 * a batch id already present means the batch was applied, and a retry changes nothing.
 */
export const usageBatches = pgTable('usage_batches', {
  batchId: text('batch_id').primaryKey(),
  ruTableVersion: text('ru_table_version').notNull(),
  rows: integer('rows').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type TUsageMinuteRow = typeof usageMinute.$inferSelect;
