/** The statistic page's filter selection and what it turns into: a range, a bucket and report params. */
import type {
  TErrorCode,
  TRangeProblem,
  TReportBucket,
  TReportParamsIn,
  TReportScope,
} from '@rpc/contract';
import {
  DEFAULT_MINUTE_RETENTION_DAYS,
  REPORT_BUCKETS,
  REPORT_MAX_RANGE_MS,
  pickReportBucket,
  resolveReportFrame,
} from '@rpc/contract';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const RANGE_PRESETS = ['1h', '24h', '7d', '30d'] as const;
export type TRangePreset = (typeof RANGE_PRESETS)[number];
export type TRangeChoice = TRangePreset | 'custom';
export const RANGE_CHOICES: readonly TRangeChoice[] = [...RANGE_PRESETS, 'custom'];

export const PRESET_MS: Record<TRangePreset, number> = {
  '1h': HOUR_MS,
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
};

export type TMetric = 'requests' | 'ru';
export type TStackBy = 'apikey' | 'network';

export type TStatisticFilters = {
  range: TRangeChoice;
  /** the custom range, epoch ms (only read when range is custom) */
  customFrom?: number;
  customTo?: number;
  bucket: TReportBucket;
  scope: TReportScope;
  /** the key shown with scope apikey */
  keyId?: string;
  /** one network, or every network when absent */
  chain?: string;
  metric: TMetric;
  stackBy: TStackBy;
};

export const DEFAULT_FILTERS: TStatisticFilters = {
  range: '24h',
  bucket: pickReportBucket(PRESET_MS['24h']),
  scope: 'team',
  metric: 'requests',
  stackBy: 'apikey',
};

export type TTimeRange = { from: number; to: number };

/** The range a selection covers; a preset ends at `now` (the moment it was chosen or refreshed). */
export function resolveRange(filters: TStatisticFilters, now: number): TTimeRange | null {
  if (filters.range !== 'custom') return { from: now - PRESET_MS[filters.range], to: now };
  if (filters.customFrom === undefined || filters.customTo === undefined) return null;
  return { from: filters.customFrom, to: filters.customTo };
}

/** False for an interval too fine for the range (REPORT_MAX_RANGE_MS) or older than minute retention. */
export function isBucketAllowed(
  bucket: TReportBucket,
  range: TTimeRange,
  now: number,
  retentionDays = DEFAULT_MINUTE_RETENTION_DAYS,
): boolean {
  if (range.to - range.from > REPORT_MAX_RANGE_MS[bucket]) return false;
  return bucket !== 'minute' || range.from >= now - retentionDays * DAY_MS;
}

/** pickReportBucket, or the finest allowed bucket coarser than it when that one is not allowed. */
export function defaultBucket(range: TTimeRange, now: number): TReportBucket {
  const picked = pickReportBucket(range.to - range.from);
  const start = REPORT_BUCKETS.indexOf(picked);
  return REPORT_BUCKETS.slice(start).find((b) => isBucketAllowed(b, range, now)) ?? 'day';
}

/** The error code the server would answer for each refused range (10601–10604, 10607). */
export const RANGE_PROBLEM_CODE: Record<TRangeProblem, TErrorCode> = {
  reversed: 10601,
  tooLong: 10602,
  future: 10603,
  beforeRetention: 10604,
  badTimeZone: 10607,
};

/** The contract's own range check, run before calling: null when fine, else the server's error code. */
export function rangeErrorCode(
  range: TTimeRange,
  bucket: TReportBucket,
  timeZone: string,
  now: number,
): TErrorCode | null {
  const check = resolveReportFrame(
    { ...range, bucket, timeZone },
    now,
    DEFAULT_MINUTE_RETENTION_DAYS,
  );
  return check.ok ? null : RANGE_PROBLEM_CODE[check.problem];
}

/** Account-wide report params for a selection (scope apikey only with a key). */
export function buildReportParams(
  filters: TStatisticFilters,
  range: TTimeRange,
  timeZone: string,
): TReportParamsIn {
  const params: TReportParamsIn = {
    from: Math.floor(range.from),
    to: Math.floor(range.to),
    bucket: filters.bucket,
    timeZone,
  };
  if (filters.chain) params.chain = filters.chain;
  if (filters.scope === 'apikey' && filters.keyId) {
    params.scope = 'apikey';
    params.keyId = filters.keyId;
  } else {
    params.scope = 'team';
  }
  return params;
}
