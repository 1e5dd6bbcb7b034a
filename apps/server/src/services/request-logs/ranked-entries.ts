/**
 * The one place that knows how a key's newest entries are found among its windows (request_log_windows: one row
 * per key and gateway flush window, the entries as a JSON array). Used by the read, which must answer exactly the
 * newest REQUEST_LOG_MAX_ROWS_PER_KEY even between two prune passes, and by the prune, which removes the rest.
 *
 * Windows of several gateways can overlap in time, so "the newest windows until N entries" is not exactly "the
 * windows holding the newest N entries". Exactly: S = the windows, newest `last_at` first, until they hold N
 * entries; B = the N-th newest entry of S. Every entry older than B is outside the newest N (S alone holds N
 * entries at least as new as B), so only windows whose `last_at` reaches B can hold one of them: those are
 * unpacked and ranked, at most N plus a few windows' worth.
 */
import { requestLogWindows } from '@rpc/db';
import { sql, type SQL } from 'drizzle-orm';

/** `at` (epoch ms) of an entry array `v` (REQUEST_LOG_ENTRY_FIELDS). */
export const ENTRY_AT = sql.raw(`(e.v->>0)::double precision`);

/**
 * Common table expressions `ws`, `bound` and `ranked` (to follow `with`): `ranked` holds the entries of the key's
 * windows that can be among its newest `max`, as `wid` (window id), `wn` (its entry count), `ord` (place in the
 * window, from 1), `v` (the entry array), `at` (epoch ms) and `rn` (1 = newest; ties broken by window id, then
 * place, later first).
 * Windows that end before `since` are left out of `ranked` (their entries are all older than anything newer than
 * `since`, so leaving them out changes no rank there).
 */
export function rankedEntriesOfKey(o: {
  keyId: string;
  accountId?: string;
  max: number;
  since?: number;
}): SQL {
  const ofKey = o.accountId
    ? sql`key_id = ${o.keyId} and account_id = ${o.accountId}`
    : sql`key_id = ${o.keyId}`;
  const since =
    o.since === undefined
      ? sql``
      : sql`and ws.last_at >= 'epoch'::timestamptz + ${o.since}::double precision * interval '1 millisecond'`;
  return sql`ws as (
      select id, n, last_at, entries, sum(n) over (order by last_at desc, id desc) - n as before
      from ${requestLogWindows} where ${ofKey}
    ),
    bound as (
      select ${ENTRY_AT} as at
      from ws cross join lateral json_array_elements(ws.entries) as e(v)
      where ws.before < ${o.max}
      order by 1 desc offset ${o.max - 1} limit 1
    ),
    ranked as (
      select ws.id as wid, ws.n as wn, e.ord, e.v, ${ENTRY_AT} as at,
        row_number() over (order by ${ENTRY_AT} desc, ws.id desc, e.ord desc) as rn
      from ws cross join lateral json_array_elements(ws.entries) with ordinality as e(v, ord)
      where (not exists (select 1 from bound)
        or ws.last_at >= 'epoch'::timestamptz + (select at from bound) * interval '1 millisecond') ${since}
    )`;
}
