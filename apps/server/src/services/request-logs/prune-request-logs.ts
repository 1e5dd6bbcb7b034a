/**
 * The request log's bounds, applied by the hourly pruning job: entries and drop counts older than the retention,
 * and every key's entries beyond its newest REQUEST_LOG_MAX_ROWS_PER_KEY. Idempotent: a second pass deletes
 * nothing. Deletes run in bounded chunks, like the usage prune, so no statement holds locks for long.
 */
import { REQUEST_LOG_MAX_ROWS_PER_KEY } from '@rpc/contract';
import type { TExecutor } from '@rpc/db';
import { sql, type SQL } from 'drizzle-orm';

const HOUR_MS = 3_600_000;
const DEFAULT_CHUNK = 10_000;

export type TPruneRequestLogsResult = { expired: number; overflow: number; drops: number };

export async function pruneRequestLogs(o: {
  db: TExecutor;
  now: number;
  retentionHours: number;
  /** newest entries kept per key (default REQUEST_LOG_MAX_ROWS_PER_KEY) */
  maxPerKey?: number;
  /** rows per DELETE (default 10,000) */
  chunkSize?: number;
}): Promise<TPruneRequestLogsResult> {
  const cutoff = sql`${new Date(o.now - o.retentionHours * HOUR_MS).toISOString()}::timestamptz`;
  const chunk = o.chunkSize ?? DEFAULT_CHUNK;
  const max = o.maxPerKey ?? REQUEST_LOG_MAX_ROWS_PER_KEY;
  const expired = await deleteInChunks(
    o.db,
    (limit) => sql`delete from request_logs where id = any(array(
      select id from request_logs where at < ${cutoff} limit ${limit}))`,
    chunk,
  );
  // Only keys holding more than `max` entries are ranked: one grouped pass over the (key_id, at) index.
  const overflow = await deleteInChunks(
    o.db,
    (limit) => sql`delete from request_logs where id = any(array(
      select id from (
        select id, row_number() over (partition by key_id order by at desc, id desc) as n
        from request_logs
        where key_id in (select key_id from request_logs group by key_id having count(*) > ${max})
      ) ranked where n > ${max} limit ${limit}))`,
    chunk,
  );
  const drops = await deleteInChunks(
    o.db,
    (limit) => sql`delete from request_log_drops where ctid = any(array(
      select ctid from request_log_drops where minute < ${cutoff} limit ${limit}))`,
    chunk,
  );
  return { expired, overflow, drops };
}

/** Repeats a limited DELETE until a pass removes fewer rows than the limit. */
async function deleteInChunks(
  db: TExecutor,
  statement: (limit: number) => SQL,
  chunk: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    const n = affectedRows(await db.execute(statement(chunk)));
    total += n;
    if (n < chunk) return total;
  }
}

/** postgres-js reports `count`, PGlite `affectedRows`. */
function affectedRows(res: unknown): number {
  const r = res as { count?: number; affectedRows?: number };
  return Number(r.count ?? r.affectedRows ?? 0);
}
