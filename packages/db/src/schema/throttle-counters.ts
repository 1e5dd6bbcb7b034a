import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Fixed-window attempt counters of the console throttle when there is no Redis (the embedded default, or PostgreSQL
 * alone), so a restart does not hand an attacker fresh windows. One row per live key; expired rows are swept.
 */
export const throttleCounters = pgTable(
  'throttle_counters',
  {
    /** e.g. 'login:ip:203.0.113.7', 'login:emailIp:a@b.c|203.0.113.7' */
    key: text('key').primaryKey(),
    /** attempts in the current window */
    count: integer('count').notNull(),
    /** when the current window ends and the count starts again */
    resetAt: timestamp('reset_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('throttle_counters_reset_at_idx').on(t.resetAt)],
);
