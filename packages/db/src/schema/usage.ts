/**
 * Usage recorded by the gateway. One row per (key, chain, method, UTC minute), counters added on conflict, so
 * the rollups below are kept in step with it.
 */
import {
  bigint,
  date,
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

/*
 * Rollups, written in the same transaction as the minute rows (services/usage/write-usage-batch.ts), so they are
 * never behind the minute table and a retried batch changes nothing twice. Minute rows expire after the
 * retention period; the rollups stay.
 *
 * usage_hour: per key and chain per UTC hour (hour buckets, totals, and day buckets in a zone other than the
 *   account's).
 * usage_day: per key and chain per local day in the account's report time zone (accounts.time_zone).
 * usage_day_key_method / usage_day_method: per method per local day, with and without the key, for the top-5
 *   method reports (one network's top 5 over a year reads 40 methods × 366 days, not × 50 keys); the same
 *   summed over the chains below (usage_day_key_method_all_chains, usage_day_method_all_chains), and per UTC hour
 *   for the minute retention (usage_hour_method).
 * usage_{hour,day}_key and usage_{hour,day}_chain: the same without the chain or without the key, for charts and
 *   tables split by key or by network (a year of day buckets for 50 keys reads 50 × 366 rows, not × 5 chains).
 */
const counters = () => ({
  requests: bigint('requests', { mode: 'number' }).notNull().default(0),
  ru: bigint('ru', { mode: 'number' }).notNull().default(0),
  errors: bigint('errors', { mode: 'number' }).notNull().default(0),
  latencyMsSum: bigint('latency_ms_sum', { mode: 'number' }).notNull().default(0),
});

export const usageHour = pgTable(
  'usage_hour',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    chain: text('chain').notNull(),
    /** start of the UTC hour */
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    ...counters(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.hour, t.keyId, t.chain] }),
    index('usage_hour_key_hour_idx').on(t.keyId, t.hour),
    index('usage_hour_account_chain_hour_idx').on(t.accountId, t.chain, t.hour),
  ],
);

export const usageDay = pgTable(
  'usage_day',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    chain: text('chain').notNull(),
    /** local date in the account's report time zone */
    day: date('day', { mode: 'string' }).notNull(),
    ...counters(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.day, t.keyId, t.chain] }),
    index('usage_day_key_day_idx').on(t.keyId, t.day),
    index('usage_day_account_chain_day_idx').on(t.accountId, t.chain, t.day),
  ],
);

export const usageDayKeyMethod = pgTable(
  'usage_day_key_method',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    chain: text('chain').notNull(),
    method: text('method').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull().default(0),
    ru: bigint('ru', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day, t.chain, t.method] })],
);

export const usageDayMethod = pgTable(
  'usage_day_method',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    chain: text('chain').notNull(),
    method: text('method').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull().default(0),
    ru: bigint('ru', { mode: 'number' }).notNull().default(0),
  },
  // Chain before day: with no key, this table is read for one network (every network reads
  // usage_day_method_all_chains), so a year on one network is one range of the index.
  (t) => [primaryKey({ columns: [t.accountId, t.chain, t.day, t.method] })],
);

const accountRef = () =>
  uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' });
const keyRef = () =>
  uuid('key_id')
    .notNull()
    .references(() => apiKeys.id, { onDelete: 'cascade' });

export const usageHourKey = pgTable(
  'usage_hour_key',
  {
    accountId: accountRef(),
    keyId: keyRef(),
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    ...counters(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.hour, t.keyId] })],
);

export const usageHourChain = pgTable(
  'usage_hour_chain',
  {
    accountId: accountRef(),
    chain: text('chain').notNull(),
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    ...counters(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.hour, t.chain] })],
);

export const usageDayKey = pgTable(
  'usage_day_key',
  {
    accountId: accountRef(),
    keyId: keyRef(),
    day: date('day', { mode: 'string' }).notNull(),
    ...counters(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day, t.keyId] })],
);

export const usageDayChain = pgTable(
  'usage_day_chain',
  {
    accountId: accountRef(),
    chain: text('chain').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    ...counters(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day, t.chain] })],
);

/**
 * Per key per method per account-zone day, summed over the chains: the top-5 methods of one key over a year read
 * 40 methods × 366 days here instead of × 5 networks from usage_day_key_method (whose rows of one key are spread
 * over the whole table). Written with usage_day_key_method, from the same rows.
 */
export const usageDayKeyMethodAllChains = pgTable(
  'usage_day_key_method_all_chains',
  {
    accountId: accountRef(),
    keyId: keyRef(),
    method: text('method').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull().default(0),
    ru: bigint('ru', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day, t.method] })],
);

/**
 * Per method per account-zone day, summed over the keys and chains: the team-wide top-5 methods over a year read
 * 40 methods × 366 days here instead of × 5 networks from usage_day_method. Written with usage_day_method, from
 * the same rows.
 */
export const usageDayMethodAllChains = pgTable(
  'usage_day_method_all_chains',
  {
    accountId: accountRef(),
    method: text('method').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull().default(0),
    ru: bigint('ru', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day, t.method] })],
);

/**
 * Per method and chain per UTC hour, summed over the keys, kept only as long as the minute rows
 * (services/usage/prune-usage.ts): the team-wide top-5 methods within the minute retention read the whole hours
 * at a frame's edges here instead of their minute rows (24 hours: 40 methods × 5 chains × 24, not ~58,000 minute
 * rows of a large account).
 */
export const usageHourMethod = pgTable(
  'usage_hour_method',
  {
    accountId: accountRef(),
    chain: text('chain').notNull(),
    method: text('method').notNull(),
    /** start of the UTC hour */
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull().default(0),
    ru: bigint('ru', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.hour, t.chain, t.method] })],
);

/*
 * Day buckets in zones other than the account's (docs/decisions/usage-reports.md, "Other zones"). A zone's day
 * bucket holds the UTC hours whose start, at the zone's offset then, falls on that local date; over any stretch
 * with one offset that is a day of a fixed UTC offset. So the hour rollups are kept summed into days per UTC
 * offset (in seconds), for the offsets an account's callers have asked for, each rollup on its own first use
 * (usage_day_offset_kept; backfilled then from the matching usage_hour rollup), and a report adds the few hours
 * around a change of offset from usage_hour. day = the UTC date of (hour + offset_seconds).
 */
export const usageDayOffsetKept = pgTable(
  'usage_day_offset_kept',
  {
    accountId: accountRef(),
    offsetSeconds: integer('offset_seconds').notNull(),
    /** which rollup: 'wide' (usage_day_offset), 'key' (usage_day_offset_key) or 'chain' */
    rollup: text('rollup').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * Set while the backfill runs (flushes already add to the rollup, reports do not read it yet); null once the
     * rollup is complete. The backfill that set it clears it, in the transaction that adds its sums.
     */
    fillId: uuid('fill_id'),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.offsetSeconds, t.rollup] })],
);

export const usageDayOffset = pgTable(
  'usage_day_offset',
  {
    accountId: accountRef(),
    offsetSeconds: integer('offset_seconds').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    keyId: keyRef(),
    chain: text('chain').notNull(),
    ...counters(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.offsetSeconds, t.day, t.keyId, t.chain] }),
    index('usage_day_offset_key_day_idx').on(t.keyId, t.offsetSeconds, t.day),
  ],
);

export const usageDayOffsetKey = pgTable(
  'usage_day_offset_key',
  {
    accountId: accountRef(),
    offsetSeconds: integer('offset_seconds').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    keyId: keyRef(),
    ...counters(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.offsetSeconds, t.day, t.keyId] })],
);

export const usageDayOffsetChain = pgTable(
  'usage_day_offset_chain',
  {
    accountId: accountRef(),
    offsetSeconds: integer('offset_seconds').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    chain: text('chain').notNull(),
    ...counters(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.offsetSeconds, t.day, t.chain] })],
);
