/** hub_reportUserPurchase: cents paid for packages per bucket, by package type (purchases_account_created_idx). */
import type { TMoneyReportResult } from '@rpc/contract';
import type { TExecutor } from '@rpc/db';
import { sql } from 'drizzle-orm';
import { moneyFrame, moneySeriesResult, type TMoneyRange } from './money-report';
import { ts } from './usage-queries';

export async function reportUserPurchase(o: {
  db: TExecutor;
  now: number;
  /** the acting account (personal, or the X-Team-Id team) */
  accountId: string;
  range: TMoneyRange;
}): Promise<TMoneyReportResult> {
  const frame = moneyFrame(o.range, o.now);
  return moneySeriesResult({
    db: o.db,
    frame,
    table: sql.raw('purchases'),
    at: sql.raw('created_at'),
    cents: sql.raw('paid_cents'),
    group: sql.raw('type'),
    where: [
      sql`account_id = ${o.accountId}`,
      sql`created_at >= ${ts(frame.from)}`,
      sql`created_at < ${ts(frame.to)}`,
    ],
  });
}
