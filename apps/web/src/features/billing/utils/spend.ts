/**
 * Spend over time for the billing chart: the purchase report's day buckets (local days of the report's zone)
 * summed per calendar month. Months are whole local days, so the sums are exact.
 */
import { REPORT_MAX_RANGE_MS, localParts, type TMoneyReportResult } from '@rpc/contract';

export type TSpendPoint = { month: string; cents: number };

/** Months shown: 12 calendar months up to today span at most 366 days, the day bucket's longest range. */
export const SPEND_MONTHS = 12;

const monthText = (year: number, month: number) => `${year}-${String(month).padStart(2, '0')}`;

/**
 * The report range for the last `months` calendar months up to `now`, local to the browser: from the first of the
 * oldest month to tomorrow's midnight (the server cuts the end at today's last bucket). Stable all day long, so
 * the query key does not change on every render.
 */
export function spendRange(now: number, months = SPEND_MONTHS): { from: number; to: number } {
  const d = new Date(now);
  const from = new Date(d.getFullYear(), d.getMonth() - (months - 1), 1).getTime();
  const tomorrow = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
  // 366 days plus a DST hour (a leap year, clocks set back in between) would be over the limit (10602); the
  // shorter end still lies in today, and the server aligns it up to today's end.
  return { from, to: Math.min(tomorrow, from + REPORT_MAX_RANGE_MS.day) };
}

/** The last `months` calendar months up to `now` in the report's zone, oldest first, with the cents paid in each. */
export function spendByMonth(
  report: Pick<TMoneyReportResult, 'buckets' | 'series' | 'timeZone'>,
  now: number,
  months = SPEND_MONTHS,
): TSpendPoint[] {
  const end = localParts(now, report.timeZone);
  const points: TSpendPoint[] = [];
  for (let i = months - 1; i >= 0; i -= 1) {
    // Month arithmetic on a UTC date (its fields only): no zone or DST in the way.
    const m = new Date(Date.UTC(end.year, end.month - 1 - i, 1));
    points.push({ month: monthText(m.getUTCFullYear(), m.getUTCMonth() + 1), cents: 0 });
  }
  const index = new Map(points.map((p, i) => [p.month, i]));
  const total = report.series.find((s) => s.id === 'total')?.data ?? [];
  report.buckets.forEach((start, b) => {
    const p = localParts(start, report.timeZone);
    const i = index.get(monthText(p.year, p.month));
    if (i !== undefined) points[i]!.cents += total[b] ?? 0;
  });
  return points;
}
