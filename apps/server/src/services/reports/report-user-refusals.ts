/**
 * hub_reportUserRefusals: calls the gateway refused itself, per bucket and JSON-RPC code (usage_refusal_minute for
 * minute buckets, usage_refusal_hour otherwise, grouped by the caller's local date for days), and the upstream
 * errors of answered calls per bucket from the usage tables. Scope, key and network filter both.
 */
import type { TParams, TResult } from '@rpc/contract';
import { localDate } from '@rpc/contract';
import { sql, type SQL } from 'drizzle-orm';
import { openReport, type TReport, type TReportOptions } from './open-report';
import { queryRows } from '../../lib/query-rows';
import { bucketKeys, errorBucketRows, ts } from './usage-queries';

const HOUR_MS = 3_600_000;

/** Text key of each frame bucket as the refusal query answers it: epoch ms, or the local date for days. */
function refusalBucketKeys(report: TReport): string[] {
  const { frame } = report;
  return frame.bucket === 'day'
    ? frame.buckets.map((b) => localDate(b, frame.timeZone))
    : frame.buckets.map(String);
}

async function refusalRows(
  report: TReport,
): Promise<{ bucket: string; code: number; count: number }[]> {
  const { frame } = report;
  const filters: SQL[] = [sql`account_id = ${report.accountId}`];
  if (report.keyId !== undefined) filters.push(sql`key_id = ${report.keyId}`);
  if (report.chain !== undefined) filters.push(sql`chain = ${report.chain}`);
  let table: SQL;
  let bucket: SQL;
  if (frame.bucket === 'minute') {
    table = sql.raw('usage_refusal_minute');
    bucket = sql.raw('((extract(epoch from minute) * 1000)::bigint)::text');
    filters.push(sql`minute >= ${ts(frame.from)}`, sql`minute < ${ts(frame.to)}`);
  } else if (frame.bucket === 'hour') {
    table = sql.raw('usage_refusal_hour');
    bucket = sql.raw('((extract(epoch from hour) * 1000)::bigint)::text');
    filters.push(sql`hour >= ${ts(frame.from)}`, sql`hour < ${ts(frame.to)}`);
  } else {
    // An hour counts on the local date its start falls on (exact for whole-hour offsets), as usage does.
    table = sql.raw('usage_refusal_hour');
    bucket = sql`((hour at time zone ${frame.timeZone})::date)::text`;
    filters.push(
      sql`hour >= ${ts(Math.floor(frame.from / HOUR_MS) * HOUR_MS)}`,
      sql`hour < ${ts(frame.to)}`,
      sql`(hour at time zone ${frame.timeZone})::date >= ${localDate(frame.from, frame.timeZone)}::date`,
      sql`(hour at time zone ${frame.timeZone})::date < ${localDate(frame.to, frame.timeZone)}::date`,
    );
  }
  const rows = await queryRows<{ bucket: string; code: unknown; count: unknown }>(
    report.db,
    sql`select ${bucket} as bucket, code, sum(count) as count from ${table}
      where ${sql.join(filters, sql` and `)} group by 1, 2`,
  );
  return rows.map((r) => ({ bucket: r.bucket, code: Number(r.code), count: Number(r.count) }));
}

export async function reportUserRefusals(
  o: TReportOptions & TParams<'hub_reportUserRefusals'>,
): Promise<TResult<'hub_reportUserRefusals'>> {
  const report = await openReport(o);
  const { frame } = report;

  const keys = refusalBucketKeys(report);
  const index = new Map(keys.map((k, i) => [k, i]));
  const byCode = new Map<number, { data: number[]; total: number }>();
  for (const r of await refusalRows(report)) {
    const i = index.get(r.bucket);
    if (i === undefined) continue;
    let line = byCode.get(r.code);
    if (!line) {
      line = { data: keys.map(() => 0), total: 0 };
      byCode.set(r.code, line);
    }
    line.data[i] = (line.data[i] ?? 0) + r.count;
    line.total += r.count;
  }

  const usageKeys = bucketKeys(report);
  const usageIndex = new Map(usageKeys.map((k, i) => [k, i]));
  const errors = usageKeys.map(() => 0);
  for (const r of await errorBucketRows(report)) {
    const i = usageIndex.get(r.bucket);
    if (i !== undefined) errors[i] = (errors[i] ?? 0) + r.errors;
  }

  const series = [...byCode.entries()]
    .map(([code, line]) => ({ code, data: line.data, total: line.total }))
    .sort((a, b) => b.total - a.total || a.code - b.code);
  return {
    bucket: frame.bucket,
    timeZone: frame.timeZone,
    from: frame.from,
    to: frame.to,
    buckets: frame.buckets,
    series,
    total: series.reduce((sum, s) => sum + s.total, 0),
    errors,
    totalErrors: errors.reduce((a, b) => a + b, 0),
  };
}
