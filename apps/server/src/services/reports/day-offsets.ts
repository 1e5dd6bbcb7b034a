/**
 * Day buckets in a zone other than the account's, from the per-offset day rollups (docs/decisions/usage-reports.md,
 * "Other zones"). The hour fallback counts each UTC hour on `(hour at time zone $tz)::date`. Over hours where the
 * zone keeps one UTC offset o, that is the UTC date of hour + o, which usage_day_offset* keep per account for the
 * offsets its callers use. So a frame's hours are grouped by (local date, offset), both computed by the database
 * itself, exactly as the fallback does: a group of 24 hours is a whole day of that offset and is read from the
 * rollup; any other group (the days a zone changes its offset, and nothing else) is read hour by hour from
 * usage_hour. The sums are the fallback's, for every zone, summer time and 30- or 45-minute offsets included.
 */
import { localDate } from '@rpc/contract';
import { sql, type SQL } from 'drizzle-orm';
import { keepDayOffsets, type TOffsetRollup } from '../usage/rollups';
import type { TReport } from './open-report';
import { queryRows } from '../../lib/query-rows';
import { ts } from './usage-queries';

const HOUR_MS = 3_600_000;

export type TDayOffsetPlan = {
  /** per kept offset (seconds), the inclusive ranges of its days read from the rollup */
  ranges: Array<{ offsetSeconds: number; from: string; to: string }>;
  /** the UTC hours (epoch ms) read from usage_hour */
  hours: number[];
};

/** The first hour and the (exclusive) end the fallback reads, and its date range. */
export function fallbackBounds(report: TReport): {
  firstHour: number;
  to: number;
  fromDate: string;
  toDate: string;
} {
  const { frame } = report;
  return {
    firstHour: Math.floor(frame.from / HOUR_MS) * HOUR_MS,
    to: frame.to,
    fromDate: localDate(frame.from, frame.timeZone),
    toDate: localDate(frame.to, frame.timeZone),
  };
}

type TGroup = { day: string; off: number; n: number; hours: string | null };

/**
 * Hour groups by database (its zone data) and frame. They depend on nothing else, and a day frame stays the same
 * all day, so a chart refreshed or paged through computes them once; entries expire after an hour (a zone data
 * update on the database server is then seen within the hour).
 */
const groupCache = new WeakMap<object, Map<string, { at: number; groups: Promise<TGroup[]> }>>();
const GROUP_CACHE_MS = HOUR_MS;
const GROUP_CACHE_SIZE = 500;

/** The frame's hours grouped by (local date, UTC offset), computed by the database with its own zone data. */
async function hourGroups(report: TReport): Promise<TGroup[]> {
  const b = fallbackBounds(report);
  const tz = report.frame.timeZone;
  const last = Math.ceil(b.to / HOUR_MS) * HOUR_MS - HOUR_MS;
  if (last < b.firstHour) return [];
  let cache = groupCache.get(report.db);
  if (!cache) {
    cache = new Map();
    groupCache.set(report.db, cache);
  }
  const id = `${tz}|${b.firstHour}|${last}|${b.fromDate}|${b.toDate}`;
  const now = Date.now();
  const seen = cache.get(id);
  if (seen && now - seen.at < GROUP_CACHE_MS) return seen.groups;
  const groups = queryRows<{ day: string; off: unknown; n: unknown; hours: string | null }>(
    report.db,
    sql`select d::text as day, off, count(*) as n,
        case when count(*) < 24 then string_agg((extract(epoch from x)::bigint)::text, ',') end as hours
      from (select x, l::date as d, extract(epoch from (l - (x at time zone 'UTC')))::int as off
        from generate_series(${ts(b.firstHour)}, ${ts(last)}, interval '1 hour') x,
          lateral (select x at time zone ${tz} as l) z) h
      where d >= ${b.fromDate}::date and d < ${b.toDate}::date
      group by d, off`,
  ).then((rows) =>
    rows.map((r) => ({ day: r.day, off: Number(r.off), n: Number(r.n), hours: r.hours })),
  );
  if (cache.size >= GROUP_CACHE_SIZE) cache.clear();
  cache.set(id, { at: now, groups });
  // A failed query is not kept.
  groups.catch(() => cache.delete(id));
  return groups;
}

const nextDate = (d: string): string =>
  new Date(Date.parse(`${d}T00:00:00Z`) + 24 * HOUR_MS).toISOString().slice(0, 10);

/**
 * Which days of which offsets a frame reads from the per-offset rollups, and which hours from usage_hour; starts
 * keeping the offsets it needs (backfilled once per account and offset). Undefined when the account may keep no
 * more offsets: the caller then reads every hour, as before.
 */
export async function dayOffsetPlan(
  report: TReport,
  rollup: TOffsetRollup,
): Promise<TDayOffsetPlan | undefined> {
  const groups = await hourGroups(report);
  const whole = groups.filter((g) => g.n === 24);
  const needed = [...new Set(whole.map((g) => g.off))];
  if (needed.length > 0) {
    const kept = await keepDayOffsets(report.db, report.accountId, rollup, needed);
    if (needed.some((o) => !kept.has(o))) return undefined;
  }
  const ranges: TDayOffsetPlan['ranges'] = [];
  for (const off of needed) {
    const days = whole
      .filter((g) => g.off === off)
      .map((g) => g.day)
      .sort();
    let start = days[0]!;
    let end = start;
    for (const d of days.slice(1)) {
      if (d === nextDate(end)) {
        end = d;
        continue;
      }
      ranges.push({ offsetSeconds: off, from: start, to: end });
      start = d;
      end = d;
    }
    ranges.push({ offsetSeconds: off, from: start, to: end });
  }
  const hours = groups
    .filter((g) => g.n !== 24)
    .flatMap((g) => (g.hours ?? '').split(',').filter(Boolean))
    .map((s) => Number(s) * 1000)
    .sort((a, b) => a - b);
  return { ranges, hours };
}

/** Columns each rollup pair has besides the time and the counters. */
const COLUMNS: Record<'' | '_key' | '_chain', string> = {
  '': 'key_id, chain',
  _key: 'key_id',
  _chain: 'chain',
};

/**
 * The rows of a plan as one subquery `(…) s` with columns b (the local date), the group columns, requests, ru,
 * errors, latency_ms_sum; `filters` (account, key, chain) apply to both parts.
 */
export function dayOffsetRows(
  plan: TDayOffsetPlan,
  narrow: '' | '_key' | '_chain',
  timeZone: string,
  filters: SQL[],
): SQL {
  const cols = sql.raw(`${COLUMNS[narrow]}, requests, ru, errors, latency_ms_sum`);
  const parts: SQL[] = [];
  if (plan.ranges.length > 0) {
    const days = sql.join(
      plan.ranges.map(
        (r) =>
          sql`(offset_seconds = ${r.offsetSeconds}::int and day >= ${r.from}::date and day <= ${r.to}::date)`,
      ),
      sql` or `,
    );
    parts.push(
      sql`select day as b, ${cols} from ${sql.raw(`usage_day_offset${narrow}`)}
        where ${sql.join([...filters, sql`(${days})`], sql` and `)}`,
    );
  }
  if (plan.hours.length > 0 || parts.length === 0) {
    const hours =
      plan.hours.length > 0
        ? sql`hour in (${sql.join(
            plan.hours.map((h) => ts(h)),
            sql`, `,
          )})`
        : sql`false`;
    parts.push(
      sql`select (hour at time zone ${timeZone})::date as b, ${cols} from ${sql.raw(`usage_hour${narrow}`)}
        where ${sql.join([...filters, hours], sql` and `)}`,
    );
  }
  return sql`(${sql.join(parts, sql` union all `)}) s`;
}
