/**
 * What every report does first: check and align the range, check the key and the network, and settle the
 * account's report zone. Nothing is written before every check has passed.
 */
import {
  ERROR_CODES,
  localParts,
  resolveReportFrame,
  type TErrorCode,
  type TRangeProblem,
  type TReportBucket,
  type TReportFrame,
} from '@rpc/contract';
import { apiKeys } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { settleAccountTimeZone } from './account-time-zone';

const RANGE_ERRORS: Record<TRangeProblem, TErrorCode> = {
  reversed: ERROR_CODES.REPORT_RANGE_REVERSED,
  tooLong: ERROR_CODES.REPORT_RANGE_TOO_LONG,
  future: ERROR_CODES.REPORT_RANGE_IN_FUTURE,
  beforeRetention: ERROR_CODES.REPORT_RANGE_BEFORE_RETENTION,
  badTimeZone: ERROR_CODES.REPORT_BAD_TIME_ZONE,
};

export type TReportRequest = {
  from: number;
  to: number;
  bucket: TReportBucket;
  timeZone: string;
  chain?: string | undefined;
  keyId?: string | undefined;
};

export type TReportOptions = Pick<TRpcContext, 'db' | 'clock' | 'config' | 'chains'> & {
  auth: TAuth;
} & TReportRequest;

/** A checked report: every query filters on accountId, and on keyId / chain when set. */
export type TReport = Pick<TRpcContext, 'db' | 'chains'> & {
  accountId: string;
  frame: TReportFrame;
  /** the zone the account's day rollups are kept in */
  accountZone: string;
  /**
   * True when the frame's day buckets are whole days of the account zone (the same zone, or one with the same
   * midnights over the frame, e.g. Asia/Chongqing for Asia/Shanghai): day buckets then read usage_day.
   */
  daysMatchAccountZone: boolean;
  keyId: string | undefined;
  chain: string | undefined;
  now: number;
  minuteRetentionDays: number;
};

/** The aligned frame of a range, or the range's catalogue error (10601–10604, 10607). */
export function checkReportFrame(
  range: Pick<TReportRequest, 'from' | 'to' | 'bucket' | 'timeZone'>,
  now: number,
  minuteRetentionDays: number,
): TReportFrame {
  const check = resolveReportFrame(
    { from: range.from, to: range.to, bucket: range.bucket, timeZone: range.timeZone },
    now,
    minuteRetentionDays,
  );
  if (!check.ok) throw new RpcError(RANGE_ERRORS[check.problem]);
  return check.frame;
}

export async function openReport(o: TReportOptions): Promise<TReport> {
  const now = o.clock.now();
  const accountId = o.auth.account.id;
  const frame = checkReportFrame(o, now, o.config.minuteRetentionDays);

  if (o.keyId !== undefined) {
    // Deleted keys included: their usage still counts.
    const [key] = await o.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, o.keyId), eq(apiKeys.accountId, accountId)))
      .limit(1);
    if (!key) throw new RpcError(ERROR_CODES.REPORT_UNKNOWN_KEY);
  }
  if (o.chain !== undefined && !o.chains.some((c) => c.id === o.chain))
    throw new RpcError(ERROR_CODES.REPORT_UNKNOWN_CHAIN);

  const accountZone = await settleAccountTimeZone({
    db: o.db,
    accountId,
    callerZone: o.timeZone,
  });
  return {
    db: o.db,
    chains: o.chains,
    accountId,
    frame,
    accountZone,
    daysMatchAccountZone:
      frame.bucket === 'day' &&
      (frame.timeZone === accountZone ||
        [...frame.buckets, frame.to].every((b) => {
          const p = localParts(b, accountZone);
          return p.hour === 0 && p.minute === 0;
        })),
    keyId: o.keyId,
    chain: o.chain,
    now,
    minuteRetentionDays: o.config.minuteRetentionDays,
  };
}
