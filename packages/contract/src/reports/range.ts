/**
 * The one place a report range is checked and aligned; the server answers with it, and the console uses it to
 * refuse a bad custom range before asking.
 */
import { REPORT_MAX_RANGE_MS, type TReportBucket, type TReportFrame } from './schemas';
import { bucketStart, bucketStarts, isValidTimeZone, nextBucket } from './time-zone';

export type TRangeProblem = 'reversed' | 'tooLong' | 'future' | 'beforeRetention' | 'badTimeZone';

export type TRangeCheck = { ok: true; frame: TReportFrame } | { ok: false; problem: TRangeProblem };

export function resolveReportFrame(
  range: { from: number; to: number; bucket: TReportBucket; timeZone: string },
  now: number,
  minuteRetentionDays: number,
): TRangeCheck {
  const { from, bucket, timeZone } = range;
  if (!isValidTimeZone(timeZone)) return { ok: false, problem: 'badTimeZone' };
  if (range.to <= from) return { ok: false, problem: 'reversed' };
  if (from > now) return { ok: false, problem: 'future' };
  if (range.to - from > REPORT_MAX_RANGE_MS[bucket]) return { ok: false, problem: 'tooLong' };
  if (bucket === 'minute' && from < now - minuteRetentionDays * 24 * 3_600_000)
    return { ok: false, problem: 'beforeRetention' };
  // The end never reaches past the bucket that holds "now": no empty future buckets on the chart.
  const to = Math.min(range.to, nextBucket(bucketStart(now, bucket, timeZone), bucket, timeZone));
  const alignedFrom = bucketStart(from, bucket, timeZone);
  const lastStart = bucketStart(to - 1, bucket, timeZone);
  const alignedTo = nextBucket(lastStart, bucket, timeZone);
  return {
    ok: true,
    frame: {
      bucket,
      timeZone,
      from: alignedFrom,
      to: alignedTo,
      buckets: bucketStarts(alignedFrom, alignedTo, bucket, timeZone),
    },
  };
}
