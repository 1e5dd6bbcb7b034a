/**
 * Calls the gateway refused itself (rate limits, no RUs, allowlists, methods not offered), counted per key, chain
 * and JSON-RPC error code: per UTC minute (kept as long as usage_minute) and per UTC hour (kept). They cost
 * nothing, so they are not usage; the statistics page shows them beside it.
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

const refusalColumns = () => ({
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  keyId: uuid('key_id')
    .notNull()
    .references(() => apiKeys.id, { onDelete: 'cascade' }),
  chain: text('chain').notNull(),
  /** the JSON-RPC error code the call was answered with (-32005 rate limited, -32006 no RU, …) */
  code: integer('code').notNull(),
  count: bigint('count', { mode: 'number' }).notNull().default(0),
});

export const usageRefusalMinute = pgTable(
  'usage_refusal_minute',
  {
    ...refusalColumns(),
    /** start of the UTC minute */
    minute: timestamp('minute', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.chain, t.code, t.minute] }),
    index('usage_refusal_minute_account_minute_idx').on(t.accountId, t.minute),
  ],
);

export const usageRefusalHour = pgTable(
  'usage_refusal_hour',
  {
    ...refusalColumns(),
    /** start of the UTC hour */
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.hour, t.keyId, t.chain, t.code] }),
    index('usage_refusal_hour_key_hour_idx').on(t.keyId, t.hour),
  ],
);
