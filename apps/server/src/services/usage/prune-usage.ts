/**
 * Minute retention: deletes usage_minute and usage_refusal_minute rows, the per-method hours (usage_hour_method,
 * read only within the retention) and usage_batches ids older than the retention period, in bounded chunks so no
 * statement holds locks (or bloats WAL) for long. The other hour and day rollups are kept.
 */
import type { TExecutor } from '@rpc/db';
import { sql, type SQL } from 'drizzle-orm';

const DAY_MS = 86_400_000;
const DEFAULT_CHUNK = 10_000;

export type TPruneUsageResult = {
  minuteRows: number;
  hourMethodRows: number;
  refusalMinuteRows: number;
  batches: number;
  before: number;
};

export async function pruneUsage(o: {
  db: TExecutor;
  now: number;
  retentionDays: number;
  /** rows per DELETE (default 10,000) */
  chunkSize?: number;
}): Promise<TPruneUsageResult> {
  const before = o.now - o.retentionDays * DAY_MS;
  const cutoff = sql`${new Date(before).toISOString()}::timestamptz`;
  const chunk = o.chunkSize ?? DEFAULT_CHUNK;
  const minuteRows = await deleteInChunks(
    o.db,
    (limit) => sql`delete from usage_minute where ctid = any(array(
      select ctid from usage_minute where minute < ${cutoff} limit ${limit}))`,
    chunk,
  );
  // Hours wholly before the cutoff: a report reads them only from a frame that starts within the retention.
  const hourMethodRows = await deleteInChunks(
    o.db,
    (limit) => sql`delete from usage_hour_method where ctid = any(array(
      select ctid from usage_hour_method where hour <= ${cutoff} - interval '1 hour' limit ${limit}))`,
    chunk,
  );
  const refusalMinuteRows = await deleteInChunks(
    o.db,
    (limit) => sql`delete from usage_refusal_minute where ctid = any(array(
      select ctid from usage_refusal_minute where minute < ${cutoff} limit ${limit}))`,
    chunk,
  );
  // Batch ids guard against a retried flush being counted twice; retries happen within seconds, not days.
  const batches = await deleteInChunks(
    o.db,
    (limit) => sql`delete from usage_batches where ctid = any(array(
      select ctid from usage_batches where created_at < ${cutoff} limit ${limit}))`,
    chunk,
  );
  return { minuteRows, hourMethodRows, refusalMinuteRows, batches, before };
}

/** Repeats a limited DELETE (by ctid: PostgreSQL has no DELETE … LIMIT) until a pass removes fewer rows. */
async function deleteInChunks(
  db: TExecutor,
  statement: (limit: number) => SQL,
  chunk: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    const res: unknown = await db.execute(statement(chunk));
    const n = affectedRows(res);
    total += n;
    if (n < chunk) return total;
  }
}

/** postgres-js reports `count`, PGlite `affectedRows`. */
function affectedRows(res: unknown): number {
  const r = res as { count?: number; affectedRows?: number };
  return Number(r.count ?? r.affectedRows ?? 0);
}
