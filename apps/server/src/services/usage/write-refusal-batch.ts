/**
 * Writes one batch of the gateway's refusal counts exactly once: the batch id (in usage_batches, marked
 * 'refusals'), the minute rows and the hour rollup commit together, counters added on conflict. A batch id seen
 * before changes nothing, so a retry after a lost acknowledgement does not count twice.
 */
import { usageBatches, usageRefusalHour, usageRefusalMinute, type TDatabase } from '@rpc/db';
import type { TRefusalBatch, TRefusalRow } from '@rpc/gateway';
import { sql } from 'drizzle-orm';

/** Rows per INSERT (7 parameters each, well under PostgreSQL's 65,535). */
const CHUNK = 1000;
const HOUR_MS = 3_600_000;

/** What usage_batches.ru_table_version holds for a refusal batch (it has no RU table). */
export const REFUSAL_BATCH_MARK = 'refusals';

type TKeyed = Omit<TRefusalRow, 'minute'> & { at: number };

/** Rows merged on (key, chain, code, time), in a fixed order so concurrent writers never deadlock. */
function merge(rows: readonly TRefusalRow[], unit: number): TKeyed[] {
  const merged = new Map<string, TKeyed>();
  for (const r of rows) {
    const at = r.minute - (r.minute % unit);
    const id = `${r.keyId}\u0000${r.chain}\u0000${r.code}\u0000${at}`;
    const seen = merged.get(id);
    if (seen) seen.count += r.count;
    else
      merged.set(id, {
        accountId: r.accountId,
        keyId: r.keyId,
        chain: r.chain,
        code: r.code,
        count: r.count,
        at,
      });
  }
  return [...merged.values()].sort(
    (a, b) =>
      cmp(a.accountId, b.accountId) ||
      cmp(a.keyId, b.keyId) ||
      cmp(a.chain, b.chain) ||
      a.code - b.code ||
      a.at - b.at,
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export async function writeRefusalBatch(db: TDatabase, batch: TRefusalBatch): Promise<boolean> {
  const minutes = merge(batch.rows, 60_000).filter((r) => r.count > 0);
  const hours = merge(batch.rows, HOUR_MS).filter((r) => r.count > 0);
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(usageBatches)
      .values({
        batchId: batch.batchId,
        ruTableVersion: REFUSAL_BATCH_MARK,
        rows: minutes.length,
        createdAt: new Date(batch.createdAt),
      })
      .onConflictDoNothing()
      .returning({ batchId: usageBatches.batchId });
    if (inserted.length === 0) return false;
    for (let i = 0; i < minutes.length; i += CHUNK) {
      await tx
        .insert(usageRefusalMinute)
        .values(
          minutes.slice(i, i + CHUNK).map((r) => ({
            accountId: r.accountId,
            keyId: r.keyId,
            chain: r.chain,
            code: r.code,
            minute: new Date(r.at),
            count: r.count,
          })),
        )
        .onConflictDoUpdate({
          target: [
            usageRefusalMinute.keyId,
            usageRefusalMinute.chain,
            usageRefusalMinute.code,
            usageRefusalMinute.minute,
          ],
          set: { count: sql`${usageRefusalMinute.count} + excluded.count` },
        });
    }
    for (let i = 0; i < hours.length; i += CHUNK) {
      await tx
        .insert(usageRefusalHour)
        .values(
          hours.slice(i, i + CHUNK).map((r) => ({
            accountId: r.accountId,
            keyId: r.keyId,
            chain: r.chain,
            code: r.code,
            hour: new Date(r.at),
            count: r.count,
          })),
        )
        .onConflictDoUpdate({
          target: [
            usageRefusalHour.accountId,
            usageRefusalHour.hour,
            usageRefusalHour.keyId,
            usageRefusalHour.chain,
            usageRefusalHour.code,
          ],
          set: { count: sql`${usageRefusalHour.count} + excluded.count` },
        });
    }
    return true;
  });
}
