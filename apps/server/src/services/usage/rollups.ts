/**
 * Keeps the usage rollups (packages/db schema/usage.ts) in step with the minute rows: one call per usage batch,
 * inside its transaction, and one rebuild when an account's report time zone is first set.
 */
import { randomUUID } from 'node:crypto';
import {
  accounts,
  usageDay,
  usageDayKeyMethod,
  usageDayKeyMethodAllChains,
  usageDayChain,
  usageDayKey,
  usageDayMethod,
  usageDayMethodAllChains,
  usageDayOffset,
  usageDayOffsetChain,
  usageDayOffsetKey,
  usageDayOffsetKept,
  usageHour,
  usageHourChain,
  usageHourKey,
  usageHourMethod,
  type TDatabase,
  type TExecutor,
} from '@rpc/db';
import { localDate } from '@rpc/contract';
import type { TUsageRow } from '@rpc/gateway';
import { and, eq, getTableColumns, getTableName, inArray, sql, type SQL } from 'drizzle-orm';
import { queryRows } from '../../lib/query-rows';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

const HOUR_MS = 3_600_000;
/** Zone offsets are multiples of 15 minutes, so the local date is constant within a UTC quarter hour. */
const QUARTER_MS = 900_000;
/** Rollup rows per INSERT (one JSON document each). */
const JSON_CHUNK = 5000;

/**
 * Locks the batch's accounts (sorted, so concurrent flushes never deadlock) and answers the zone each account's
 * day rollups use. The lock also orders a flush against a time-zone rebuild of the same account. `for no key
 * update` (what an update of the row takes anyway) rather than `for update`: it still excludes other flushes and
 * every `for update` (the zone rebuild, keepDayOffsets' marking), but not the key-share lock a foreign-key check
 * takes, so a per-offset backfill inserting rows of the account (which holds rollup rows a flush may wait for)
 * never waits for a flush: no deadlock.
 */
export async function lockReportZones(
  tx: TExecutor,
  accountIds: string[],
): Promise<Map<string, string>> {
  const zones = new Map<string, string>();
  if (accountIds.length === 0) return zones;
  const rows = await tx
    .select({ id: accounts.id, timeZone: accounts.timeZone })
    .from(accounts)
    .where(inArray(accounts.id, accountIds))
    .orderBy(accounts.id)
    .for('no key update');
  for (const r of rows) zones.set(r.id, r.timeZone ?? 'UTC');
  return zones;
}

type TCounters = { requests: number; ru: number; errors: number; latencyMsSum: number };

/**
 * Adds r's counters to the row `id` of map, made by seed (its fields but the counters) when new. Seeds are object
 * literals: `{ ...zero, … }` made each row ≈ 20 times slower to build and to serialise (V8 11), 40 ms of a
 * 1,000-key flush.
 */
function addInto<T extends TCounters>(
  map: Map<string, T>,
  id: string,
  seed: () => Omit<T, keyof TCounters>,
  r: TCounters,
): void {
  const seen = map.get(id);
  if (!seen) {
    const fresh = seed() as T;
    fresh.requests = r.requests;
    fresh.ru = r.ru;
    fresh.errors = r.errors;
    fresh.latencyMsSum = r.latencyMsSum;
    map.set(id, fresh);
    return;
  }
  seen.requests += r.requests;
  seen.ru += r.ru;
  seen.errors += r.errors;
  seen.latencyMsSum += r.latencyMsSum;
}

/** Adds a batch's (already merged) minute rows to every rollup. */
export async function addToRollups(
  tx: TExecutor,
  rows: TUsageRow[],
  zones: Map<string, string>,
): Promise<void> {
  const dates = new Map<string, string>();
  const dayOf = (r: TUsageRow): string => {
    const zone = zones.get(r.accountId) ?? 'UTC';
    const id = `${zone}|${Math.floor(r.minute / QUARTER_MS)}`;
    let d = dates.get(id);
    if (d === undefined) {
      d = localDate(r.minute, zone);
      dates.set(id, d);
    }
    return d;
  };

  type THour = TCounters & { accountId: string; keyId: string; chain: string; hour: Date };
  type TDay = TCounters & { accountId: string; keyId: string; chain: string; day: string };
  type TKeyMethod = TCounters & {
    accountId: string;
    keyId: string;
    chain: string;
    method: string;
    day: string;
  };
  type TMethod = TCounters & { accountId: string; chain: string; method: string; day: string };
  type THourMethod = TCounters & { accountId: string; chain: string; method: string; hour: Date };
  const hours = new Map<string, THour>();
  const days = new Map<string, TDay>();
  const keyMethods = new Map<string, TKeyMethod>();
  const methods = new Map<string, TMethod>();
  const hourMethods = new Map<string, THourMethod>();
  for (const r of rows) {
    const hour = Math.floor(r.minute / HOUR_MS) * HOUR_MS;
    const day = dayOf(r);
    const { accountId, keyId, chain, method } = r;
    addInto(
      hours,
      `${keyId}|${chain}|${hour}`,
      () => ({ accountId, keyId, chain, hour: new Date(hour) }),
      r,
    );
    addInto(days, `${keyId}|${chain}|${day}`, () => ({ accountId, keyId, chain, day }), r);
    addInto(
      keyMethods,
      `${keyId}|${chain}|${method}|${day}`,
      () => ({ accountId, keyId, chain, method, day }),
      r,
    );
    addInto(
      methods,
      `${accountId}|${chain}|${method}|${day}`,
      () => ({ accountId, chain, method, day }),
      r,
    );
    addInto(
      hourMethods,
      `${accountId}|${hour}|${chain}|${method}`,
      () => ({ accountId, chain, method, hour: new Date(hour) }),
      r,
    );
  }

  const sorted = <T>(m: Map<string, T>): T[] =>
    [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);

  await upsertAdd(
    tx,
    usageHour,
    sorted(hours),
    [usageHour.accountId, usageHour.hour, usageHour.keyId, usageHour.chain],
    true,
  );
  await upsertAdd(
    tx,
    usageDay,
    sorted(days),
    [usageDay.accountId, usageDay.day, usageDay.keyId, usageDay.chain],
    true,
  );
  await upsertAdd(
    tx,
    usageDayKeyMethod,
    sorted(keyMethods),
    [
      usageDayKeyMethod.keyId,
      usageDayKeyMethod.day,
      usageDayKeyMethod.chain,
      usageDayKeyMethod.method,
    ],
    false,
  );
  const keyMethodsAllChains = new Map<
    string,
    TCounters & { accountId: string; keyId: string; method: string; day: string }
  >();
  for (const r of keyMethods.values()) {
    const { accountId, keyId, method, day } = r;
    addInto(
      keyMethodsAllChains,
      `${keyId}|${day}|${method}`,
      () => ({ accountId, keyId, method, day }),
      r,
    );
  }
  await upsertAdd(
    tx,
    usageDayKeyMethodAllChains,
    sorted(keyMethodsAllChains),
    [
      usageDayKeyMethodAllChains.keyId,
      usageDayKeyMethodAllChains.day,
      usageDayKeyMethodAllChains.method,
    ],
    false,
  );
  await upsertAdd(
    tx,
    usageDayMethod,
    sorted(methods),
    [usageDayMethod.accountId, usageDayMethod.chain, usageDayMethod.day, usageDayMethod.method],
    false,
  );
  // The same days summed over the chains, and the hours (team-wide top-5 methods; one statement each).
  const methodsAllChains = new Map<
    string,
    TCounters & { accountId: string; method: string; day: string }
  >();
  for (const r of methods.values()) {
    const { accountId, method, day } = r;
    addInto(
      methodsAllChains,
      `${accountId}|${day}|${method}`,
      () => ({ accountId, method, day }),
      r,
    );
  }
  await upsertAdd(
    tx,
    usageDayMethodAllChains,
    sorted(methodsAllChains),
    [
      usageDayMethodAllChains.accountId,
      usageDayMethodAllChains.day,
      usageDayMethodAllChains.method,
    ],
    false,
  );
  await upsertAdd(
    tx,
    usageHourMethod,
    sorted(hourMethods),
    [
      usageHourMethod.accountId,
      usageHourMethod.hour,
      usageHourMethod.chain,
      usageHourMethod.method,
    ],
    false,
  );

  // The same hours and days without the chain, and without the key.
  type TByKey<B extends string> = TCounters & { accountId: string; keyId: string } & Record<
      B,
      unknown
    >;
  type TByChain<B extends string> = TCounters & { accountId: string; chain: string } & Record<
      B,
      unknown
    >;
  const project = <B extends 'hour' | 'day'>(
    from: Map<
      string,
      TCounters & { accountId: string; keyId: string; chain: string } & Record<B, unknown>
    >,
    bucket: B,
  ) => {
    const byKey = new Map<string, TByKey<B>>();
    const byChain = new Map<string, TByChain<B>>();
    for (const r of from.values()) {
      const b = r[bucket];
      const at = b instanceof Date ? b.getTime() : String(b);
      const { accountId, keyId, chain } = r;
      addInto(
        byKey,
        `${accountId}|${at}|${keyId}`,
        () => ({ accountId, keyId, [bucket]: b }) as Omit<TByKey<B>, keyof TCounters>,
        r,
      );
      addInto(
        byChain,
        `${accountId}|${at}|${chain}`,
        () => ({ accountId, chain, [bucket]: b }) as Omit<TByChain<B>, keyof TCounters>,
        r,
      );
    }
    return { byKey: sorted(byKey), byChain: sorted(byChain) };
  };
  const h = project(hours, 'hour');
  const d = project(days, 'day');
  await upsertAdd(
    tx,
    usageHourKey,
    h.byKey,
    [usageHourKey.accountId, usageHourKey.hour, usageHourKey.keyId],
    true,
  );
  await upsertAdd(
    tx,
    usageHourChain,
    h.byChain,
    [usageHourChain.accountId, usageHourChain.hour, usageHourChain.chain],
    true,
  );
  await upsertAdd(
    tx,
    usageDayKey,
    d.byKey,
    [usageDayKey.accountId, usageDayKey.day, usageDayKey.keyId],
    true,
  );
  await upsertAdd(
    tx,
    usageDayChain,
    d.byChain,
    [usageDayChain.accountId, usageDayChain.day, usageDayChain.chain],
    true,
  );
  await addToDayOffsets(tx, [...hours.values()]);
}

/** day = the UTC date of (hour + offset): the local date of the hour's start at that UTC offset. */
export const offsetDay = (hour: number, offsetSeconds: number): string =>
  new Date(hour + offsetSeconds * 1000).toISOString().slice(0, 10);

/** The per-offset day rollups, by the usage_hour rollup each is summed from. */
export type TOffsetRollup = 'wide' | 'key' | 'chain';
const OFFSET_SOURCES: Record<TOffsetRollup, { table: string; hours: string; cols: string }> = {
  wide: { table: 'usage_day_offset', hours: 'usage_hour', cols: 'key_id, chain' },
  key: { table: 'usage_day_offset_key', hours: 'usage_hour_key', cols: 'key_id' },
  chain: { table: 'usage_day_offset_chain', hours: 'usage_hour_chain', cols: 'chain' },
};

/**
 * Adds a batch's hour rows to the per-offset day rollups their accounts keep (usually none). Runs after
 * lockReportZones, so it is ordered against keepDayOffsets of the same account.
 */
async function addToDayOffsets(
  tx: TExecutor,
  hours: Array<TCounters & { accountId: string; keyId: string; chain: string; hour: Date }>,
): Promise<void> {
  const accountIds = [...new Set(hours.map((h) => h.accountId))];
  if (accountIds.length === 0) return;
  const kept = await tx
    .select({
      accountId: usageDayOffsetKept.accountId,
      offset: usageDayOffsetKept.offsetSeconds,
      rollup: usageDayOffsetKept.rollup,
    })
    .from(usageDayOffsetKept)
    .where(inArray(usageDayOffsetKept.accountId, accountIds));
  if (kept.length === 0) return;
  const keptOf = new Map<string, Array<{ offset: number; rollup: string }>>();
  for (const k of kept) keptOf.set(k.accountId, [...(keptOf.get(k.accountId) ?? []), k]);
  type TRow = TCounters & { accountId: string; offsetSeconds: number; day: string };
  const wide = new Map<string, TRow & { keyId: string; chain: string }>();
  const byKey = new Map<string, TRow & { keyId: string }>();
  const byChain = new Map<string, TRow & { chain: string }>();
  for (const h of hours) {
    for (const { offset: offsetSeconds, rollup } of keptOf.get(h.accountId) ?? []) {
      const day = offsetDay(h.hour.getTime(), offsetSeconds);
      const { accountId, keyId, chain } = h;
      const at = `${accountId}|${offsetSeconds}|${day}`;
      if (rollup === 'wide')
        addInto(
          wide,
          `${at}|${keyId}|${chain}`,
          () => ({ accountId, offsetSeconds, day, keyId, chain }),
          h,
        );
      else if (rollup === 'key')
        addInto(byKey, `${at}|${keyId}`, () => ({ accountId, offsetSeconds, day, keyId }), h);
      else if (rollup === 'chain')
        addInto(byChain, `${at}|${chain}`, () => ({ accountId, offsetSeconds, day, chain }), h);
    }
  }
  const sorted = <T>(m: Map<string, T>): T[] =>
    [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  const o = usageDayOffset;
  await upsertAdd(
    tx,
    o,
    sorted(wide),
    [o.accountId, o.offsetSeconds, o.day, o.keyId, o.chain],
    true,
  );
  const k = usageDayOffsetKey;
  await upsertAdd(tx, k, sorted(byKey), [k.accountId, k.offsetSeconds, k.day, k.keyId], true);
  const c = usageDayOffsetChain;
  await upsertAdd(tx, c, sorted(byChain), [c.accountId, c.offsetSeconds, c.day, c.chain], true);
}

/** At most this many distinct UTC offsets kept per account (a zone with summer time needs two). */
export const MAX_DAY_OFFSETS = 8;

/** A backfill still unfinished after this long is taken as dead (its process stopped) and started again. */
const FILL_STALE = '10 minutes';

/** Test seams: `afterMark` runs once the new offsets are marked and before their backfill reads usage_hour. */
export type TKeepDayOffsetsHooks = { afterMark?: () => Promise<void> };

/**
 * Starts keeping one per-offset day rollup of an account for `offsets` (those not kept yet; new offsets only up
 * to MAX_DAY_OFFSETS distinct ones in all), backfilled from the matching usage_hour rollup. Answers the offsets
 * whose rollup is complete afterwards (one still being backfilled by another call is not: that report reads the
 * hours meanwhile).
 *
 * Two steps, so the account's usage flushes never wait for the backfill (0.7–3 s for a year of a large account):
 * 1. With the account row locked like a flush, the offsets are marked as kept (with this fill's id). Every flush
 *    after that adds its hours to the rollup, as for a complete one.
 * 2. Without the account lock, one statement adds, per rollup row, the usage_hour sums less what the rollup
 *    already holds, both read in the statement's one snapshot. What the rollup holds then is exactly what flushes
 *    added since the mark (each flush adds to usage_hour and to the rollup in one transaction), so the difference
 *    is usage_hour as it was at the mark; flushes committed after that snapshot added to both and are in the row
 *    the statement adds to (on conflict, the latest version). The same transaction clears the fill id, and only
 *    if it is still this fill's (a restart of a stale fill replaced it).
 */
export async function keepDayOffsets(
  db: TDatabase,
  accountId: string,
  rollup: TOffsetRollup,
  offsets: number[],
  hooks: TKeepDayOffsetsHooks = {},
): Promise<Set<number>> {
  const k = usageDayOffsetKept;
  const keptNow = async (ex: TExecutor) =>
    ex
      .select({
        offset: k.offsetSeconds,
        rollup: k.rollup,
        fillId: k.fillId,
        stale: sql<boolean>`${k.createdAt} < now() - ${FILL_STALE}::interval`,
      })
      .from(k)
      .where(eq(k.accountId, accountId));
  type TKept = Awaited<ReturnType<typeof keptNow>>;
  const completeOf = (rows: TKept) =>
    new Set(rows.filter((r) => r.rollup === rollup && r.fillId === null).map((r) => r.offset));
  // Almost always kept already: no lock, no transaction.
  const seen = completeOf(await keptNow(db));
  if (offsets.every((o) => seen.has(o))) return seen;

  const src = OFFSET_SOURCES[rollup];
  const fillId = randomUUID();
  const marked = await db.transaction(async (tx) => {
    // Like a flush (see lockReportZones): excludes flushes, not a running backfill's foreign-key checks.
    await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for('no key update');
    const rows = await keptNow(tx);
    const mine = new Map(rows.filter((r) => r.rollup === rollup).map((r) => [r.offset, r]));
    const anyRollup = new Set(rows.map((r) => r.offset));
    let room = MAX_DAY_OFFSETS - anyRollup.size;
    const fresh: number[] = [];
    const restarted: number[] = [];
    for (const o of new Set(offsets)) {
      const row = mine.get(o);
      if (row) {
        // Complete, or being backfilled by a live call; a stale fill starts again from nothing.
        if (row.fillId !== null && row.stale) restarted.push(o);
        continue;
      }
      if (!anyRollup.has(o)) {
        if (room <= 0) continue;
        room -= 1;
      }
      fresh.push(o);
    }
    if (fresh.length > 0)
      await tx
        .insert(k)
        .values(fresh.map((offsetSeconds) => ({ accountId, offsetSeconds, rollup, fillId })));
    if (restarted.length > 0) {
      // No flush runs meanwhile (the account is locked): the rollup restarts empty, then gets what they add.
      await tx.execute(sql`delete from ${sql.raw(src.table)}
        where account_id = ${accountId} and offset_seconds in (${sql.join(
          restarted.map((o) => sql`${o}::int`),
          sql`, `,
        )})`);
      await tx
        .update(k)
        .set({ fillId, createdAt: sql`now()` })
        .where(
          and(
            eq(k.accountId, accountId),
            eq(k.rollup, rollup),
            inArray(k.offsetSeconds, restarted),
          ),
        );
    }
    return [...fresh, ...restarted];
  });
  if (marked.length > 0) {
    await hooks.afterMark?.();
    await db.transaction(async (tx) => {
      const claimed = await tx
        .update(k)
        .set({ fillId: null })
        .where(
          and(
            eq(k.accountId, accountId),
            eq(k.rollup, rollup),
            inArray(k.offsetSeconds, marked),
            eq(k.fillId, fillId),
          ),
        )
        .returning({ offset: k.offsetSeconds });
      if (claimed.length === 0) return;
      await tx.execute(
        backfillSql(
          rollup,
          accountId,
          claimed.map((c) => c.offset),
        ),
      );
    });
  }
  return completeOf(await keptNow(db));
}

/**
 * The backfill of step 2 above: per (offset, day, group) the usage_hour sums less the rollup's row, added to that
 * row. Rows are written in the order addToDayOffsets writes them (its sort key, byte order), so a flush and the
 * backfill lock the rows they share in the same order and cannot deadlock; a flush waits at most for the rest of
 * the insert, never for the read of usage_hour.
 */
function backfillSql(rollup: TOffsetRollup, accountId: string, offsets: number[]): SQL {
  const src = OFFSET_SOURCES[rollup];
  const cols = src.cols.split(', ');
  const offs = sql.join(
    offsets.map((o) => sql`(${o}::int)`),
    sql`, `,
  );
  const list = (prefix: string) => sql.raw(cols.map((c) => `${prefix}${c}`).join(', '));
  const joinCols = sql.raw(cols.map((c) => ` and o.${c} = h.${c}`).join(''));
  const diff = (c: string) => sql.raw(`h.${c} - coalesce(o.${c}, 0)`);
  const add = (c: string) => sql.raw(`${c} = ${src.table}.${c} + excluded.${c}`);
  // addToDayOffsets sorts on `${accountId}|${offsetSeconds}|${day}|${…cols}` (one account here).
  const sortKey = sql.raw(
    ['h.off::text', 'h.day::text', ...cols.map((c) => `h.${c}::text`)].join(" || '|' || "),
  );
  return sql`
    insert into ${sql.raw(src.table)} (account_id, offset_seconds, day, ${list('')}, requests, ru, errors,
      latency_ms_sum)
    select h.account_id, h.off, h.day, ${list('h.')}, ${diff('requests')}, ${diff('ru')}, ${diff('errors')},
      ${diff('latency_ms_sum')}
    from (
      select account_id, o.off, ((hour at time zone 'UTC') + o.off * interval '1 second')::date as day,
        ${list('')}, sum(requests) as requests, sum(ru) as ru, sum(errors) as errors,
        sum(latency_ms_sum) as latency_ms_sum
      from ${sql.raw(src.hours)} cross join (values ${offs}) o(off)
      where account_id = ${accountId}
      group by account_id, o.off, 3, ${list('')}
    ) h
    left join ${sql.raw(src.table)} o on o.account_id = h.account_id and o.offset_seconds = h.off
      and o.day = h.day${joinCols}
    order by (${sortKey}) collate "C"
    on conflict (account_id, offset_seconds, day, ${list('')}) do update set ${add('requests')}, ${add('ru')},
      ${add('errors')}, ${add('latency_ms_sum')}`;
}

type TRollupTable =
  | typeof usageDayKeyMethodAllChains
  | typeof usageDayOffset
  | typeof usageDayOffsetKey
  | typeof usageDayOffsetChain
  | typeof usageHour
  | typeof usageDay
  | typeof usageDayKeyMethod
  | typeof usageDayMethod
  | typeof usageDayMethodAllChains
  | typeof usageHourMethod
  | typeof usageHourKey
  | typeof usageHourChain
  | typeof usageDayKey
  | typeof usageDayChain;

async function upsertAdd(
  tx: TExecutor,
  table: TRollupTable,
  values: Record<string, unknown>[],
  target: PgColumn[],
  withErrors: boolean,
): Promise<void> {
  const first = values[0];
  if (!first) return;
  // One JSON parameter per chunk, unpacked by the database (json_to_recordset) in the rows' order: binding each
  // value as its own parameter cost the gateway more CPU than the statement (1,000 keys: thousands of rollup rows
  // per flush). Columns and their SQL types come from the table's schema.
  const columns = getTableColumns(table as PgTable) as Record<string, PgColumn>;
  // Tables without errors and latency (the per-method ones) are given the rows as they are, all counters in.
  const props = withErrors
    ? Object.keys(first)
    : Object.keys(first).filter((p) => p !== 'errors' && p !== 'latencyMsSum');
  const names = props.map((p) => {
    const c = columns[p];
    if (!c) throw new Error(`rollup ${getTableName(table as PgTable)}: no column for ${p}`);
    return c.name;
  });
  const list = sql.raw(names.map((n) => `"${n}"`).join(', '));
  // The JSON keeps the rows' own property names (no copy of each row under its column names): the record shape
  // names them, the select maps them to the columns; properties not in the shape are ignored by the database.
  const shape = sql.raw(props.map((p) => `"${p}" ${columns[p]!.getSQLType()}`).join(', '));
  const fields = sql.raw(props.map((p) => `r."${p}"`).join(', '));
  const conflict = sql.raw(target.map((c) => `"${c.name}"`).join(', '));
  const added = (withErrors ? ['requests', 'ru', 'errors', 'latency_ms_sum'] : ['requests', 'ru'])
    .map((n) => `"${n}" = t."${n}" + excluded."${n}"`)
    .join(', ');
  for (let i = 0; i < values.length; i += JSON_CHUNK) {
    const rows = JSON.stringify(values.slice(i, i + JSON_CHUNK));
    await tx.execute(sql`
      insert into ${table} as t (${list})
      select ${fields} from json_to_recordset(${rows}::json) as r(${shape})
      on conflict (${conflict}) do update set ${sql.raw(added)}`);
  }
}

/**
 * Re-derives an account's day rollups in zone `timeZone`: usage_day from the hour rollup (exact for zones with a
 * whole-hour offset), the per-method days from the minute rows still kept. Older per-method days keep the zone
 * they were written in (`previousZone`: 'UTC' while accounts.time_zone is null, see lockReportZones).
 * The seam: per-method rows are replaced from the first `previousZone` day the minute table holds completely, so
 * no minute is counted both in a kept old-zone day and in a rebuilt one; the rebuilt day that straddles the seam
 * may share its date with a kept row, and is added to it. Call inside the transaction that sets
 * accounts.time_zone, with the account row locked.
 */
export async function rebuildDayRollups(
  tx: TExecutor,
  accountId: string,
  timeZone: string,
  previousZone = 'UTC',
): Promise<void> {
  await tx.delete(usageDay).where(eq(usageDay.accountId, accountId));
  await tx.execute(sql`
    insert into usage_day (account_id, key_id, chain, day, requests, ru, errors, latency_ms_sum)
    select account_id, key_id, chain, (hour at time zone ${timeZone})::date, sum(requests), sum(ru), sum(errors),
      sum(latency_ms_sum)
    from usage_hour where account_id = ${accountId}
    group by 1, 2, 3, 4`);
  await tx.delete(usageDayKey).where(eq(usageDayKey.accountId, accountId));
  await tx.execute(sql`
    insert into usage_day_key (account_id, key_id, day, requests, ru, errors, latency_ms_sum)
    select account_id, key_id, day, sum(requests), sum(ru), sum(errors), sum(latency_ms_sum)
    from usage_day where account_id = ${accountId}
    group by 1, 2, 3`);
  await tx.delete(usageDayChain).where(eq(usageDayChain.accountId, accountId));
  await tx.execute(sql`
    insert into usage_day_chain (account_id, chain, day, requests, ru, errors, latency_ms_sum)
    select account_id, chain, day, sum(requests), sum(ru), sum(errors), sum(latency_ms_sum)
    from usage_day where account_id = ${accountId}
    group by 1, 2, 3`);

  // The first previous-zone day the minute table still holds completely.
  const first = await queryRows<{ day: string | null }>(
    tx,
    sql`select ((min(minute) at time zone ${previousZone})::date + 1)::text as day
      from usage_minute where account_id = ${accountId}`,
  );
  const fromDay = first[0]?.day;
  if (!fromDay) return;
  await tx
    .delete(usageDayKeyMethod)
    .where(
      and(eq(usageDayKeyMethod.accountId, accountId), sql`${usageDayKeyMethod.day} >= ${fromDay}`),
    );
  await tx
    .delete(usageDayMethod)
    .where(and(eq(usageDayMethod.accountId, accountId), sql`${usageDayMethod.day} >= ${fromDay}`));
  const since = sql`(${fromDay}::date)::timestamp at time zone ${previousZone}`;
  await tx.execute(sql`
    insert into usage_day_key_method (account_id, key_id, chain, method, day, requests, ru)
    select account_id, key_id, chain, method, (minute at time zone ${timeZone})::date, sum(requests), sum(ru)
    from usage_minute where account_id = ${accountId} and minute >= ${since}
    group by 1, 2, 3, 4, 5
    on conflict (key_id, day, chain, method) do update
      set requests = usage_day_key_method.requests + excluded.requests,
        ru = usage_day_key_method.ru + excluded.ru`);
  await tx.execute(sql`
    insert into usage_day_method (account_id, chain, method, day, requests, ru)
    select account_id, chain, method, (minute at time zone ${timeZone})::date, sum(requests), sum(ru)
    from usage_minute where account_id = ${accountId} and minute >= ${since}
    group by 1, 2, 3, 4
    on conflict (account_id, chain, day, method) do update
      set requests = usage_day_method.requests + excluded.requests, ru = usage_day_method.ru + excluded.ru`);
  // The same days summed over the chains, re-derived from the rows just rebuilt (older days were written with
  // them). From the first new-zone day a rebuilt minute fell on: in a zone west of the previous one that is the
  // day before fromDay, a kept row the rebuild added to.
  const redo = sql`least(${fromDay}::date, (${since} at time zone ${timeZone})::date)`;
  await tx
    .delete(usageDayKeyMethodAllChains)
    .where(
      and(
        eq(usageDayKeyMethodAllChains.accountId, accountId),
        sql`${usageDayKeyMethodAllChains.day} >= ${redo}`,
      ),
    );
  await tx.execute(sql`
    insert into usage_day_key_method_all_chains (account_id, key_id, method, day, requests, ru)
    select account_id, key_id, method, day, sum(requests), sum(ru)
    from usage_day_key_method where account_id = ${accountId} and day >= ${redo}
    group by 1, 2, 3, 4`);
  await tx
    .delete(usageDayMethodAllChains)
    .where(
      and(
        eq(usageDayMethodAllChains.accountId, accountId),
        sql`${usageDayMethodAllChains.day} >= ${redo}`,
      ),
    );
  await tx.execute(sql`
    insert into usage_day_method_all_chains (account_id, method, day, requests, ru)
    select account_id, method, day, sum(requests), sum(ru)
    from usage_day_method where account_id = ${accountId} and day >= ${redo}
    group by 1, 2, 3`);
  // usage_hour_method is by UTC hour: no zone to rebuild.
}
