/** hub_reportUserDeposit: cents credited by confirmed deposits per bucket of credit time, by coin. */
import { ERROR_CODES, type TMoneyReportResult } from '@rpc/contract';
import type { TExecutor } from '@rpc/db';
import { sql } from 'drizzle-orm';
import { RpcError } from '../../rpc/errors';
import { moneyFrame, moneySeriesResult, type TMoneyRange } from './money-report';
import { ts } from './usage-queries';

export async function reportUserDeposit(o: {
  db: TExecutor;
  now: number;
  /** the acting account (personal, or the X-Team-Id team) */
  accountId: string;
  /** chain ids of the catalogue, to check `chain` against */
  chainIds: readonly string[];
  range: TMoneyRange & { chain?: string | undefined };
}): Promise<TMoneyReportResult> {
  const frame = moneyFrame(o.range, o.now);
  const { chain } = o.range;
  if (chain !== undefined && !o.chainIds.includes(chain))
    throw new RpcError(ERROR_CODES.REPORT_UNKNOWN_CHAIN);
  return moneySeriesResult({
    db: o.db,
    frame,
    table: sql.raw('deposits'),
    at: sql.raw('credited_at'),
    cents: sql.raw('usd_cents'),
    group: sql.raw('coin'),
    where: [
      sql`account_id = ${o.accountId}`,
      // Credit follows creation, so this bound is implied; it lets deposits_account_created_idx narrow the scan.
      sql`created_at < ${ts(frame.to)}`,
      sql`status = 'confirmed'`,
      sql`credited_at >= ${ts(frame.from)}`,
      sql`credited_at < ${ts(frame.to)}`,
      ...(chain !== undefined ? [sql`chain = ${chain}`] : []),
    ],
  });
}
