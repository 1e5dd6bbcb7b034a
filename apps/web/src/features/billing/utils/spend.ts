/** Spend over time for the billing chart: paid cents of purchases summed per calendar month (local time). */
import type { TPurchase } from '@rpc/contract';

export type TSpendPoint = { month: string; cents: number };

function monthKey(ms: number): string {
  const date = new Date(ms);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}`;
}

/** The last `months` calendar months up to `now`, oldest first, each with the cents paid in it (0 if none). */
export function spendByMonth(
  purchases: readonly Pick<TPurchase, 'createdAt' | 'paidCents'>[],
  now: number,
  months = 12,
): TSpendPoint[] {
  const end = new Date(now);
  const points: TSpendPoint[] = [];
  for (let i = months - 1; i >= 0; i -= 1) {
    const month = new Date(end.getFullYear(), end.getMonth() - i, 1);
    points.push({ month: monthKey(month.getTime()), cents: 0 });
  }
  const index = new Map(points.map((p, i) => [p.month, i]));
  for (const purchase of purchases) {
    const i = index.get(monthKey(purchase.createdAt));
    if (i !== undefined) points[i]!.cents += purchase.paidCents;
  }
  return points;
}
