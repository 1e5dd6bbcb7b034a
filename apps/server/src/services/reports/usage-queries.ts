/**
 * The report queries. Each reads one source, picked by bucket (docs/decisions/usage-reports.md): usage_minute for
 * minute buckets, usage_hour for hour buckets, usage_day for day buckets in the account's report zone, and
 * usage_hour grouped by local date for day buckets in any other zone; of each, the narrowest rollup the grouping
 * and filters allow (rollupOf). Every query starts with account_id and a
 * time range (the leading columns of each table's key) and aggregates in SQL, so a year of usage answers with
 * at most buckets × series rows.
 */
import { localDate, nextBucket, startOfLocalDay } from '@rpc/contract';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows } from '../../lib/query-rows';
import { dayOffsetPlan, dayOffsetRows, fallbackBounds, type TDayOffsetPlan } from './day-offsets';
import type { TOffsetRollup } from '../usage/rollups';
import type { TReport } from './open-report';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type TUsageSource = 'minute' | 'hour' | 'day' | 'dayFromHours';
/** What series and totals are split by. */
export type TGroupBy = 'total' | 'key' | 'chain';

export function sourceOf(report: TReport): TUsageSource {
  const { bucket } = report.frame;
  if (bucket !== 'day') return bucket;
  return report.daysMatchAccountZone ? 'day' : 'dayFromHours';
}

export const ts = (ms: number): SQL => sql`${new Date(ms).toISOString()}::timestamptz`;

type TSourceSql = {
  table: SQL;
  /** the bucket of a row, in its native type (timestamptz for minute and hour, date for days) */
  bucket: SQL;
  /** the grouped bucket `b` as text: epoch ms (minute, hour) or a local date YYYY-MM-DD (day sources) */
  bucketText: SQL;
  where: SQL;
  /**
   * Rows already at the bucket's grain (a rollup of the bucket's size: at most a few rows per bucket and group,
   * e.g. one per network when split by key on the full rollup), so seriesLines need not aggregate them per
   * bucket in SQL.
   */
  atGrain: boolean;
};

const EPOCH_TEXT = sql.raw('((extract(epoch from b) * 1000)::bigint)::text');

/**
 * Which rollup of a source to read: without the chain (`_key`), without the key (`_chain`) or the full one. The
 * narrow ones hold 5 or 10 times fewer rows; a single key reads the full one through its (key_id, time) index.
 */
export function rollupOf(report: TReport, by: TGroupBy): '' | '_key' | '_chain' {
  if (report.keyId !== undefined) return '';
  if (by !== 'key') return '_chain';
  return report.chain === undefined ? '_key' : '';
}

/** hourFallback: day buckets in another zone read every hour row (the reference the tests compare with). */
export type TSourceOptions = { hourFallback?: boolean };

/** One plan per report and rollup (a composite reads by network and by key). */
const offsetPlans = new WeakMap<TReport, Map<TOffsetRollup, Promise<TDayOffsetPlan | undefined>>>();

function offsetPlanOf(report: TReport, rollup: TOffsetRollup): Promise<TDayOffsetPlan | undefined> {
  let plans = offsetPlans.get(report);
  if (!plans) {
    plans = new Map();
    offsetPlans.set(report, plans);
  }
  let plan = plans.get(rollup);
  if (!plan) {
    plan = dayOffsetPlan(report, rollup);
    plans.set(rollup, plan);
  }
  return plan;
}

/**
 * The per-offset rollup for a source narrowness: one key on every network reads the per-key one (its rows of
 * that key), unless split by network.
 */
function offsetNarrowOf(report: TReport, by: TGroupBy): '' | '_key' | '_chain' {
  const narrow = rollupOf(report, by);
  if (narrow === '' && report.keyId !== undefined && report.chain === undefined && by !== 'chain')
    return '_key';
  return narrow;
}
const OFFSET_ROLLUP: Record<'' | '_key' | '_chain', TOffsetRollup> = {
  '': 'wide',
  _key: 'key',
  _chain: 'chain',
};

/** Table, bucket expression and the account / range / key / chain filter of a source. */
async function sourceSql(
  report: TReport,
  source: TUsageSource,
  by: TGroupBy,
  opts: TSourceOptions = {},
): Promise<TSourceSql> {
  const narrow = rollupOf(report, by);
  const { frame } = report;
  const filters: SQL[] = [sql`account_id = ${report.accountId}`];
  if (source === 'dayFromHours' && !opts.hourFallback) {
    // Whole days of one UTC offset from the per-offset day rollups, the hours around a change of offset from
    // usage_hour (day-offsets.ts): the same sums as the hour fallback below, from ~24 times fewer rows.
    const offsetNarrow = offsetNarrowOf(report, by);
    const plan = await offsetPlanOf(report, OFFSET_ROLLUP[offsetNarrow]);
    if (plan) {
      if (report.keyId !== undefined) filters.push(sql`key_id = ${report.keyId}`);
      if (report.chain !== undefined) filters.push(sql`chain = ${report.chain}`);
      return {
        table: dayOffsetRows(plan, offsetNarrow, frame.timeZone, filters),
        bucket: sql.raw('b'),
        bucketText: sql.raw('b::text'),
        where: sql.raw('true'),
        // Whole days of a day rollup, plus the hours of the few days an offset changes.
        atGrain: true,
      };
    }
  }
  let table: SQL;
  let bucket: SQL;
  let bucketText = EPOCH_TEXT;
  if (source === 'minute') {
    table = sql.raw('usage_minute');
    bucket = sql.raw('minute');
    filters.push(sql`minute >= ${ts(frame.from)}`, sql`minute < ${ts(frame.to)}`);
  } else if (source === 'hour') {
    table = sql.raw(`usage_hour${narrow}`);
    bucket = sql.raw('hour');
    filters.push(sql`hour >= ${ts(frame.from)}`, sql`hour < ${ts(frame.to)}`);
  } else if (source === 'day') {
    // The frame's days are the account zone's: frame.to is a midnight there, so its date is the exclusive end.
    table = sql.raw(`usage_day${narrow}`);
    bucket = sql.raw('day');
    bucketText = sql.raw('b::text');
    filters.push(
      sql`day >= ${localDate(frame.from, report.accountZone)}::date`,
      sql`day < ${localDate(frame.to, report.accountZone)}::date`,
    );
  } else {
    // The reference (and the fallback when the account keeps no more offsets): an hour counts on the local date
    // its start falls on (exact for whole-hour offsets). The hour range keeps the index; the date filter makes
    // the edges of half-hour zones consistent with the buckets.
    const b = fallbackBounds(report);
    table = sql.raw(`usage_hour${narrow}`);
    bucket = sql`(hour at time zone ${frame.timeZone})::date`;
    bucketText = sql.raw('b::text');
    filters.push(
      sql`hour >= ${ts(b.firstHour)}`,
      sql`hour < ${ts(b.to)}`,
      sql`(hour at time zone ${frame.timeZone})::date >= ${b.fromDate}::date`,
      sql`(hour at time zone ${frame.timeZone})::date < ${b.toDate}::date`,
    );
  }
  if (report.keyId !== undefined) filters.push(sql`key_id = ${report.keyId}`);
  if (report.chain !== undefined) filters.push(sql`chain = ${report.chain}`);
  return {
    table,
    bucket,
    bucketText,
    where: sql.join(filters, sql` and `),
    atGrain: source === 'hour' || source === 'day',
  };
}

/** The group column in its native type (grouping on uuid and timestamps, not on text, is markedly cheaper). */
const GROUP_SQL: Record<TGroupBy, SQL> = {
  total: sql.raw(`'total'::text`),
  key: sql.raw('key_id'),
  chain: sql.raw('chain'),
};

/**
 * `bucket` is the text key of its bucket: see bucketKeys(). A bucket and group may come in more than one row
 * (to be added up).
 */
export type TBucketRow = { bucket: string; id: string; requests: number; ru: number };

/**
 * One group's rows as parallel arrays: `buckets[j]` (keyed like bucketKeys()) had `requests[j]` and `ru[j]`. A
 * bucket may appear more than once (to be added up).
 */
export type TSeriesLine = { id: string; buckets: string[]; requests: number[]; ru: number[] };

/** The text key of each frame bucket, as seriesLines() and bucketRows() answer it. */
export function bucketKeys(report: TReport): string[] {
  const { frame } = report;
  if (frame.bucket !== 'day') return frame.buckets.map(String);
  // usage_day rows carry account-zone dates; the hour fallback groups by the caller's.
  const zone = sourceOf(report) === 'day' ? report.accountZone : frame.timeZone;
  return frame.buckets.map((b) => localDate(b, zone));
}

/**
 * Requests and RUs per bucket, one row per group: the database folds the bucket rows of each group into JSON
 * arrays, so a year by day for 50 keys comes back as 50 rows instead of 18,300 (parsing and converting each row
 * in the driver and here was most of that report's server time).
 */
export async function seriesLines(
  report: TReport,
  by: TGroupBy,
  opts?: TSourceOptions,
): Promise<TSeriesLine[]> {
  const s = await sourceSql(report, sourceOf(report), by, opts);
  const inner = sql`select ${s.bucket} as b, ${GROUP_SQL[by]} as g, requests, ru from ${s.table} where ${s.where}`;
  // Rows at the bucket's grain are taken as they are: a year by day for 50 keys is 18,300 rows, and grouping
  // them into as many (bucket, group) groups cost more than reading them.
  const rows = s.atGrain
    ? sql`select ${s.bucketText} as bucket, g, requests, ru from (${inner}) r`
    : sql`select ${s.bucketText} as bucket, g, sum(requests) as requests, sum(ru) as ru
        from (${inner}) r group by b, g`;
  // The three aggregates of one group see its rows in the same order, so the arrays stay parallel.
  const lines = await queryRows<{ id: string; buckets: string; requests: string; ru: string }>(
    report.db,
    sql`select g::text as id, json_agg(bucket)::text as buckets, json_agg(requests)::text as requests,
        json_agg(ru)::text as ru
      from (${rows}) x group by g`,
  );
  return lines.map((l) => ({
    id: l.id,
    buckets: JSON.parse(l.buckets) as string[],
    requests: JSON.parse(l.requests) as number[],
    ru: JSON.parse(l.ru) as number[],
  }));
}

/** Requests and RUs per bucket and group, one row each (seriesLines() unfolded). */
export async function bucketRows(
  report: TReport,
  by: TGroupBy,
  opts?: TSourceOptions,
): Promise<TBucketRow[]> {
  return (await seriesLines(report, by, opts)).flatMap((l) =>
    l.buckets.map((bucket, j) => ({
      bucket,
      id: l.id,
      requests: l.requests[j]!,
      ru: l.ru[j]!,
    })),
  );
}

/** Upstream errors per bucket (the account's, or one key's or network's), keyed like bucketRows(). */
export async function errorBucketRows(
  report: TReport,
  opts?: TSourceOptions,
): Promise<{ bucket: string; errors: number }[]> {
  const s = await sourceSql(report, sourceOf(report), 'total', opts);
  const rows = await queryRows<{ bucket: string; errors: unknown }>(
    report.db,
    sql`select ${s.bucketText} as bucket, sum(errors) as errors
      from (select ${s.bucket} as b, errors from ${s.table} where ${s.where}) r
      group by b`,
  );
  return rows.map((r) => ({ bucket: r.bucket, errors: Number(r.errors) }));
}

export type TTotalRow = {
  id: string;
  requests: number;
  ru: number;
  errors: number;
  latencyMsSum: number;
};

/** Totals over the frame per key or network, from the bucket's source. */
export async function totalRows(
  report: TReport,
  by: 'key' | 'chain',
  opts?: TSourceOptions,
): Promise<TTotalRow[]> {
  const s = await sourceSql(report, sourceOf(report), by, opts);
  const rows = await queryRows<Record<keyof TTotalRow, unknown>>(
    report.db,
    sql`select g::text as id, sum(requests) as requests, sum(ru) as ru, sum(errors) as errors,
        sum(latency_ms_sum) as "latencyMsSum"
      from (select ${GROUP_SQL[by]} as g, requests, ru, errors, latency_ms_sum
        from ${s.table} where ${s.where}) r
      group by g`,
  );
  return rows.map((r) => ({
    id: String(r.id),
    requests: Number(r.requests),
    ru: Number(r.ru),
    errors: Number(r.errors),
    latencyMsSum: Number(r.latencyMsSum),
  }));
}

export type TMethodRow = { method: string; requests: number; ru: number };

/**
 * [a, b) split into the whole UTC hours inside it and the partial hours at its ends (minutes): `hours` is
 * undefined when no whole hour fits.
 */
function splitHours(
  a: number,
  b: number,
): { hours?: [number, number]; minutes: [number, number][] } {
  const h1 = Math.ceil(a / HOUR_MS) * HOUR_MS;
  const h2 = Math.floor(b / HOUR_MS) * HOUR_MS;
  if (h1 >= h2) return { minutes: [[a, b]] };
  const minutes: [number, number][] = [];
  if (a < h1) minutes.push([a, h1]);
  if (h2 < b) minutes.push([h2, b]);
  return { hours: [h1, h2], minutes };
}

/**
 * The five methods with the most RUs, and every method's RUs. Exact when the frame starts within the minute
 * retention: whole account-zone days from the per-method day rollups, the rest from usage_hour_method (whole UTC
 * hours; team-wide only, it has no key) and usage_minute (partial hours, or everything outside the days for one
 * key). Otherwise from the per-method day rollups over every local day (in the account's zone) the frame touches,
 * which may count a little outside the frame's edges.
 */
export async function topMethodRows(
  report: TReport,
): Promise<{ rows: TMethodRow[]; totalRu: number }> {
  const { frame, accountZone } = report;
  const common: SQL[] = [sql`account_id = ${report.accountId}`];
  if (report.keyId !== undefined) common.push(sql`key_id = ${report.keyId}`);
  if (report.chain !== undefined) common.push(sql`chain = ${report.chain}`);
  // Summed over the chains where no network is asked for: team-wide (40 methods × 366 days a year, not × 5
  // networks) and one key (not spread over the whole table like the key's usage_day_key_method rows).
  const dayTable = sql.raw(
    report.keyId === undefined
      ? report.chain === undefined
        ? 'usage_day_method_all_chains'
        : 'usage_day_method'
      : report.chain === undefined
        ? 'usage_day_key_method_all_chains'
        : 'usage_day_key_method',
  );
  const where = (more: SQL[]) => sql.join([...common, ...more], sql` and `);
  const within = (col: string, spans: [number, number][]) =>
    sql`(${sql.join(
      spans.map(([a, b]) => sql`(${sql.raw(col)} >= ${ts(a)} and ${sql.raw(col)} < ${ts(b)})`),
      sql` or `,
    )})`;
  const kept = frame.from >= report.now - report.minuteRetentionDays * DAY_MS;
  const parts: SQL[] = [];
  if (kept) {
    // Exact: the account-zone days wholly inside the frame from the per-method day rollups, the edges (and a
    // frame shorter than a day) from the hours and minutes. A week by hour reads 6 day rows per method and a day
    // of hour rows, not a day of minute rows.
    const firstMidnight = startOfLocalDay(frame.from, accountZone);
    const d1 =
      firstMidnight === frame.from ? frame.from : nextBucket(firstMidnight, 'day', accountZone);
    const d2 = startOfLocalDay(frame.to, accountZone);
    let edges: [number, number][] = [[frame.from, frame.to]];
    if (d1 < d2) {
      parts.push(
        sql`select method, requests, ru from ${dayTable} where ${where([
          sql`day >= ${localDate(d1, accountZone)}::date`,
          sql`day < ${localDate(d2, accountZone)}::date`,
        ])}`,
      );
      edges = (
        [
          [frame.from, d1],
          [d2, frame.to],
        ] as [number, number][]
      ).filter(([a, b]) => a < b);
    }
    const hourSpans: [number, number][] = [];
    const minuteSpans: [number, number][] = [];
    for (const [a, b] of edges) {
      if (report.keyId !== undefined) {
        minuteSpans.push([a, b]);
        continue;
      }
      const split = splitHours(a, b);
      if (split.hours) hourSpans.push(split.hours);
      minuteSpans.push(...split.minutes);
    }
    if (hourSpans.length > 0)
      parts.push(
        sql`select method, requests, ru from usage_hour_method where ${where([within('hour', hourSpans)])}`,
      );
    if (minuteSpans.length > 0)
      parts.push(
        sql`select method, requests, ru from usage_minute where ${where([within('minute', minuteSpans)])}`,
      );
  } else {
    parts.push(
      sql`select method, requests, ru from ${dayTable} where ${where([
        sql`day >= ${localDate(frame.from, accountZone)}::date`,
        sql`day <= ${localDate(frame.to - 1, accountZone)}::date`,
      ])}`,
    );
  }
  // The window total is taken over every method before the limit.
  const rows = await queryRows<{ method: string; requests: unknown; ru: unknown; total: unknown }>(
    report.db,
    sql`select method, sum(requests) as requests, sum(ru) as ru, sum(sum(ru)) over () as total
      from (${sql.join(parts, sql` union all `)}) u
      group by method order by sum(ru) desc, method limit 5`,
  );
  return {
    rows: rows.map((r) => ({ method: r.method, requests: Number(r.requests), ru: Number(r.ru) })),
    totalRu: rows.length > 0 ? Number(rows[0]!.total) : 0,
  };
}
