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
  // Windows straddling the cutoff keep their entries from it on (about one per key and gateway); rewritten, a
  // window starts after the cutoff, so the next chunk finds the next ones.
  expired += await sumInChunks(
    o.db,
    (limit) => sql`with kept as (
        select w.id, w.n as was, count(e.v) as n, min(${ENTRY_AT}) as first,
          coalesce(json_agg(e.v order by e.ord) filter (where e.v is not null), '[]'::json) as entries
        from (select id, n, entries from request_log_windows where first_at < ${cutoff} order by id limit ${limit})
          as w
        left join lateral json_array_elements(w.entries) with ordinality as e(v, ord)
          on ${ENTRY_AT} >= ${cutoffMs}
        group by w.id, w.n
      ),
      -- Compare and set: a window another pass has changed since this statement's snapshot is left to it.
      gone as (
        delete from request_log_windows w using kept where w.id = kept.id and kept.n = 0 and w.n = kept.was
        returning kept.was as removed
      ),
      trimmed as (
        update request_log_windows w set entries = kept.entries, n = kept.n,
          first_at = 'epoch'::timestamptz + kept.first * interval '1 millisecond'
        from kept where w.id = kept.id and kept.n > 0 and w.n = kept.was
        returning kept.was - kept.n as removed
      )
      select (select count(*) from kept) as rows,
        coalesce((select sum(removed) from gone), 0) + coalesce((select sum(removed) from trimmed), 0) as entries`,
    chunk,
  );

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
          select wid, wn as was, count(*) as n, min(at) as first, max(at) as last,
            json_agg(v order by ord) as entries
          from ranked where rn <= ${max} group by wid, wn
        ),
        -- Wholly outside the newest: whatever another pass left of such a window goes too.
        gone as (
          delete from request_log_windows w
          where w.key_id = ${keyId} and not exists (select 1 from kept where kept.wid = w.id)
          returning w.n as removed
        ),
        -- Compare and set, as above.
        trimmed as (
          update request_log_windows w set entries = kept.entries, n = kept.n,
            first_at = 'epoch'::timestamptz + kept.first * interval '1 millisecond',
            last_at = 'epoch'::timestamptz + kept.last * interval '1 millisecond'
          from kept where w.id = kept.wid and kept.n < kept.was and w.n = kept.was
          returning kept.was - kept.n as removed
        )
        select coalesce((select sum(removed) from gone), 0)
          + coalesce((select sum(removed) from trimmed), 0) as entries`,
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
