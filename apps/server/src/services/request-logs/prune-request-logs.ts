/**
 * The request log's bounds, applied by the hourly pruning job: entries and drop counts older than the retention,
 * and every key's entries beyond its newest REQUEST_LOG_MAX_ROWS_PER_KEY. The log is stored one row per key and
 * flush window (request_log_windows), so a window wholly outside the bounds is deleted and one that straddles
 * them is rewritten with the entries that stay: what is stored afterwards is exactly what the read shows.
 * Idempotent: a second pass changes nothing. Deletes run in bounded chunks, like the usage prune, so no statement
 * holds locks for long; the overflow is handled one key at a time.
 */
import { REQUEST_LOG_MAX_ROWS_PER_KEY } from '@rpc/contract';
import type { TExecutor } from '@rpc/db';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows } from '../../lib/query-rows';
import { ENTRY_AT, rankedEntriesOfKey } from './ranked-entries';

const HOUR_MS = 3_600_000;
const DEFAULT_CHUNK = 10_000;

/** Entries (not windows) removed, and drop counters removed. */
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
  const cutoffMs = o.now - o.retentionHours * HOUR_MS;
  const cutoff = sql`${new Date(cutoffMs).toISOString()}::timestamptz`;
  const chunk = o.chunkSize ?? DEFAULT_CHUNK;
  const max = o.maxPerKey ?? REQUEST_LOG_MAX_ROWS_PER_KEY;

  // Windows wholly expired (found by first_at, which only they and the straddling ones have before the cutoff).
  let expired = await sumInChunks(
    o.db,
    (limit) => sql`with gone as (
      delete from request_log_windows where id = any(array(
        select id from request_log_windows where first_at < ${cutoff} and last_at < ${cutoff} limit ${limit}))
      returning n)
      select count(*) as rows, coalesce(sum(n), 0) as entries from gone`,
    chunk,
  );
  // Windows straddling the cutoff keep their entries from it on (at most one per key and gateway).
  const [straddled] = await queryRows<{ entries: number | string }>(
    o.db,
    sql`with kept as (
        select w.id, w.n as was, count(e.v) as n, min(${ENTRY_AT}) as first,
          coalesce(json_agg(e.v order by e.ord) filter (where e.v is not null), '[]'::json) as entries
        from request_log_windows w
        left join lateral json_array_elements(w.entries) with ordinality as e(v, ord)
          on ${ENTRY_AT} >= ${cutoffMs}
        where w.first_at < ${cutoff}
        group by w.id, w.n
      ),
      gone as (delete from request_log_windows w using kept where w.id = kept.id and kept.n = 0),
      trimmed as (
        update request_log_windows w set entries = kept.entries, n = kept.n,
          first_at = 'epoch'::timestamptz + kept.first * interval '1 millisecond'
        from kept where w.id = kept.id and kept.n > 0
      )
      select coalesce(sum(was - n), 0) as entries from kept`,
  );
  expired += Number(straddled?.entries ?? 0);

  // Keys holding more than `max` entries, one at a time: the same ranking as the read, then every window outside
  // the newest `max` deleted and every window straddling them rewritten.
  const keys = await queryRows<{ key_id: string }>(
    o.db,
    sql`select key_id from request_log_windows group by key_id having sum(n) > ${max} order by key_id`,
  );
  let overflow = 0;
  for (const { key_id: keyId } of keys) {
    const [r] = await queryRows<{ entries: number | string }>(
      o.db,
      sql`with ${rankedEntriesOfKey({ keyId, max })},
        kept as (
          select wid, count(*) as n, min(at) as first, max(at) as last, json_agg(v order by ord) as entries
          from ranked where rn <= ${max} group by wid
        ),
        gone as (
          delete from request_log_windows w
          where w.key_id = ${keyId} and not exists (select 1 from kept where kept.wid = w.id)
        ),
        trimmed as (
          update request_log_windows w set entries = kept.entries, n = kept.n,
            first_at = 'epoch'::timestamptz + kept.first * interval '1 millisecond',
            last_at = 'epoch'::timestamptz + kept.last * interval '1 millisecond'
          from kept where w.id = kept.wid and kept.n < w.n
        )
        -- (Every part of the statement sees the windows as they were before it: what was there minus what stays.)
        select coalesce((select sum(n) from request_log_windows where key_id = ${keyId}), 0)
          - coalesce((select sum(n) from kept), 0) as entries`,
    );
    overflow += Number(r?.entries ?? 0);
  }

  const drops = await sumInChunks(
    o.db,
    (limit) => sql`with gone as (
      delete from request_log_drops where ctid = any(array(
        select ctid from request_log_drops where minute < ${cutoff} limit ${limit}))
      returning 1)
      select count(*) as rows, count(*) as entries from gone`,
    chunk,
  );
  return { expired, overflow, drops };
}

/** Repeats a limited DELETE until a pass removes fewer rows than the limit; answers the entries it removed. */
async function sumInChunks(
  db: TExecutor,
  statement: (limit: number) => SQL,
  chunk: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    const [r] = await queryRows<{ rows: number | string; entries: number | string }>(
      db,
      statement(chunk),
    );
    total += Number(r?.entries ?? 0);
    if (Number(r?.rows ?? 0) < chunk) return total;
  }
}
