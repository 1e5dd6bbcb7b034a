/**
 * The per-key request log: the calls the gateway settled or refused for a known key (method, transport, outcome,
 * JSON-RPC error code, latency, RU), never params, results or bodies. One row per key and gateway flush window
 * (every 5 s), its entries as one JSON array of arrays (REQUEST_LOG_ENTRY_FIELDS), so a busy flush writes one row
 * per key instead of one per call. Kept for a bounded time and at most a bounded number of entries per key
 * (jobs/usage-pruning.ts); docs/decisions/request-log.md.
 */
import {
  bigint,
  bigserial,
  index,
  integer,
  json,
  pgTable,
  primaryKey,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { apiKeys } from './api-keys';

/**
 * The fields of one entry, in their order in the entry's array: `at` (epoch ms), `chain`, `method` ('' when the
 * call had no valid method), `transport` ('http' | 'ws'), `outcome` ('ok' | 'rpc_error' | 'refused' |
 * 'upstream_failed' | 'cancelled'), `errorCode` (the JSON-RPC code of an error answer, or null), `latencyMs` and
 * `ru` (integers).
 */
export const REQUEST_LOG_ENTRY_FIELDS = [
  'at',
  'chain',
  'method',
  'transport',
  'outcome',
  'errorCode',
  'latencyMs',
  'ru',
] as const;

/** One stored entry: the values of REQUEST_LOG_ENTRY_FIELDS in that order. */
export type TRequestLogEntryRow = [
  at: number,
  chain: string,
  method: string,
  transport: string,
  outcome: string,
  errorCode: number | null,
  latencyMs: number,
  ru: number,
];

export const requestLogWindows = pgTable(
  'request_log_windows',
  {
    /** insertion order; with an entry's place in `entries`, breaks ties between entries of the same millisecond */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    /** the oldest and newest `at` of the entries */
    firstAt: timestamp('first_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** how many entries */
    n: integer('n').notNull(),
    /** TRequestLogEntryRow[], in the order the gateway settled them */
    entries: json('entries').$type<TRequestLogEntryRow[]>().notNull(),
  },
  (t) => [
    index('request_log_windows_key_last_idx').on(t.keyId, t.lastAt.desc(), t.id.desc()),
    index('request_log_windows_first_at_idx').on(t.firstAt),
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

export type TRequestLogWindowRow = typeof requestLogWindows.$inferSelect;
