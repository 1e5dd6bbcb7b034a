/**
 * The money reports' shared part (hub_reportUserPurchase, hub_reportUserDeposit): the usage reports' frame, then
 * one aggregate over the money table itself (docs/decisions/usage-reports.md "Money reports"), cut into a "total"
 * series and one series per group (package type or coin).
 */
import { localDate, type TMoneyReportResult, type TReportFrame } from '@rpc/contract';
import type { TExecutor } from '@rpc/db';
import { sql, type SQL } from 'drizzle-orm';
import { checkReportFrame } from './open-report';
import { byName, frameOf } from './report-series';
import { queryRows } from '../../lib/query-rows';

export type TMoneyRange = {
  from: number;
  to: number;
  bucket: TReportFrame['bucket'];
  timeZone: string;
};

/** Money rows are never pruned: no minute-retention limit (10604) applies, only the bucket's range limit. */
export function moneyFrame(range: TMoneyRange, now: number): TReportFrame {
  return checkReportFrame(range, now, Number.POSITIVE_INFINITY);
}

/**
 * The text key of the bucket holding `column` (a timestamptz), equal to moneyBucketKeys() for the frame's
 * buckets: epoch ms of the UTC minute or hour, or the local date (YYYY-MM-DD) in the frame's zone for days. Both
 * are independent of the session's TimeZone setting.
 */
function bucketKeySql(column: SQL, frame: TReportFrame): SQL {
  if (frame.bucket === 'day') return sql`((${column} at time zone ${frame.timeZone})::date)::text`;
  const unit = sql.raw(`'${frame.bucket}'`);
  return sql`((extract(epoch from date_trunc(${unit}, ${column} at time zone 'UTC')) * 1000)::bigint)::text`;
}

function moneyBucketKeys(frame: TReportFrame): string[] {
  return frame.bucket === 'day'
    ? frame.buckets.map((b) => localDate(b, frame.timeZone))
    : frame.buckets.map(String);
}

export type TMoneyQuery = {
  db: TExecutor;
  frame: TReportFrame;
  table: SQL;
  /** the timestamptz the rows are bucketed by */
  at: SQL;
  /** the integer cents column */
  cents: SQL;
  /** the column series are split by */
  group: SQL;
  /** account, time range and status filters, joined with and */
  where: SQL[];
};

/** Cents per bucket: "total" first, then one series per group with a row in the frame. */
export async function moneySeriesResult(q: TMoneyQuery): Promise<TMoneyReportResult> {
  const rows = await queryRows<{ bucket: string; id: string; cents: unknown; n: unknown }>(
    q.db,
    sql`select b as bucket, g as id, sum(c) as cents, count(*) as n
      from (select ${bucketKeySql(q.at, q.frame)} as b, ${q.group}::text as g, ${q.cents} as c
        from ${q.table} where ${sql.join(q.where, sql` and `)}) r
      group by b, g`,
  );
  const keys = moneyBucketKeys(q.frame);
  const index = new Map(keys.map((k, i) => [k, i]));
  const total = keys.map(() => 0);
  const groups = new Map<string, number[]>();
  let count = 0;
  for (const r of rows) {
    const i = index.get(r.bucket);
    // Cannot happen (the where clause is the frame), but a row outside the buckets must not count in totals.
    if (i === undefined) continue;
    const cents = Number(r.cents);
    let line = groups.get(r.id);
    if (!line) {
      line = keys.map(() => 0);
      groups.set(r.id, line);
    }
    line[i] = (line[i] ?? 0) + cents;
    total[i] = (total[i] ?? 0) + cents;
    count += Number(r.n);
  }
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  const split = [...groups.entries()]
    .map(([id, data]) => ({ id, name: id, data, cents: sum(data) }))
    .sort((a, b) => b.cents - a.cents || byName(a, b))
    .map(({ cents: _c, ...s }) => s);
  return {
    ...frameOf(q.frame),
    series: [{ id: 'total', name: 'Total', data: total }, ...split],
    totalCents: sum(total),
    count,
  };
}
