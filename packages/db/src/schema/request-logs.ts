/**
 * The per-key request log: one row per call the gateway settled or refused for a known key (method, transport,
 * outcome, JSON-RPC error code, latency, RU), never params, results or bodies. Kept for a bounded time and at
 * most a bounded number of rows per key (jobs/usage-pruning.ts); docs/decisions/request-log.md.
 */
import {
  bigint,
  bigserial,
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

export const requestLogs = pgTable(
  'request_logs',
  {
    /** insertion order; breaks ties between entries of the same millisecond */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    /** when the call settled */
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    chain: text('chain').notNull(),
    /** '' when the call had no valid method */
    method: text('method').notNull().default(''),
    /** 'http' | 'ws' */
    transport: text('transport').notNull(),
    /** 'ok' | 'rpc_error' | 'refused' | 'upstream_failed' | 'cancelled' */
    outcome: text('outcome').notNull(),
    /** the JSON-RPC error code of the answer, if it was an error */
    errorCode: integer('error_code'),
    latencyMs: integer('latency_ms').notNull().default(0),
    ru: integer('ru').notNull().default(0),
  },
  (t) => [
    index('request_logs_key_at_idx').on(t.keyId, t.at.desc(), t.id.desc()),
    index('request_logs_at_idx').on(t.at),
  ],
);

/**
 * Entries the gateway did not keep (its per-key and global caps per flush window), per key and UTC minute, so the
 * console can say "N more not kept". Pruned with the log.
 */
export const requestLogDrops = pgTable(
  'request_log_drops',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    /** start of the UTC minute */
    minute: timestamp('minute', { withTimezone: true, mode: 'date' }).notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.minute] })],
);

export type TRequestLogRow = typeof requestLogs.$inferSelect;
