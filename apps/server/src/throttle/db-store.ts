import { throttleCounters, type TDatabase } from '@rpc/db';
import { eq, lte, sql } from 'drizzle-orm';
import type { TClock } from '../lib/clock';
import type { TThrottleStore } from './throttle';

const SWEEP_EVERY_MS = 60_000;

/**
 * Counters in the database: the store of the embedded default (PGlite) and of PostgreSQL without Redis. They
 * survive a restart, so restarting the process never hands a guesser fresh windows, and with PostgreSQL they hold
 * across instances. Each hit is one upsert (atomic under the row lock); only throttled calls pay it.
 */
export function createDbThrottleStore(o: { db: TDatabase; clock: TClock }): TThrottleStore {
  let lastSweep = 0;

  async function sweep(now: number): Promise<void> {
    // Finished windows are dead rows; drop them at most once a minute so the table stays the size of live keys.
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    await o.db.delete(throttleCounters).where(lte(throttleCounters.resetAt, new Date(now)));
  }

  return {
    hit: async (key, windowMs) => {
      const now = o.clock.now();
      await sweep(now);
      const nowAt = sql`${new Date(now).toISOString()}::timestamptz`;
      const expired = sql`${throttleCounters.resetAt} <= ${nowAt}`;
      const [row] = await o.db
        .insert(throttleCounters)
        .values({ key, count: 1, resetAt: new Date(now + windowMs) })
        .onConflictDoUpdate({
          target: throttleCounters.key,
          set: {
            // A finished window starts again at 1 with a new end; a live one counts on.
            count: sql`case when ${expired} then 1 else ${throttleCounters.count} + 1 end`,
            resetAt: sql`case when ${expired} then excluded.reset_at else ${throttleCounters.resetAt} end`,
          },
        })
        .returning({ count: throttleCounters.count, resetAt: throttleCounters.resetAt });
      if (!row) throw new Error('throttle upsert returned no row');
      return { count: row.count, resetAt: row.resetAt.getTime() };
    },
    reset: async (key) => {
      await o.db.delete(throttleCounters).where(eq(throttleCounters.key, key));
    },
    // The database belongs to the server, which closes it.
    close: async () => {},
  };
}
