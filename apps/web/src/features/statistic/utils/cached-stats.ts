/**
 * SPEC §9 cached-stats key: the last filter selection and the last answers, so a revisit shows numbers at once
 * while it refetches. A value that is corrupt, of another version or of another shape is ignored.
 */
import type {
  TReportCompositeInfo,
  TReportSeriesResult,
  TTopMethodsResult,
  TUsageByApikeyRow,
  TUsageByNetworkRow,
} from '@rpc/contract';
import {
  REPORT_BUCKETS,
  REPORT_SCOPES,
  ZReportCompositeInfoSchema,
  ZReportSeriesResultSchema,
  ZTopMethodsResultSchema,
  ZUsageByApikeyRowSchema,
  ZUsageByNetworkRowSchema,
} from '@rpc/contract';
import { STORAGE_KEY } from '../../../lib/storage-keys';
import type { TStatisticFilters } from './filters';
import { RANGE_CHOICES } from './filters';

/** Raise when the stored shape changes; older values are then ignored. */
export const CACHED_STATS_VERSION = 1;

export type TCachedAnswers = {
  usage?: TReportSeriesResult;
  totals?: TReportCompositeInfo;
  top?: TTopMethodsResult;
  byKey?: TUsageByApikeyRow[];
  byNetwork?: TUsageByNetworkRow[];
};

export type TCachedStats = {
  version: typeof CACHED_STATS_VERSION;
  savedAt: number;
  filters: TStatisticFilters;
  answers: TCachedAnswers;
};

type TStorage = Pick<Storage, 'getItem' | 'setItem'>;

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

const isOptionalString = (v: unknown) => v === undefined || typeof v === 'string';
const isOptionalNumber = (v: unknown) =>
  v === undefined || (typeof v === 'number' && Number.isFinite(v));

function parseFilters(value: unknown): TStatisticFilters | null {
  if (!isObject(value)) return null;
  const f = value;
  const ok =
    (RANGE_CHOICES as readonly unknown[]).includes(f.range) &&
    (REPORT_BUCKETS as readonly unknown[]).includes(f.bucket) &&
    (REPORT_SCOPES as readonly unknown[]).includes(f.scope) &&
    (f.metric === 'requests' || f.metric === 'ru') &&
    (f.stackBy === 'apikey' || f.stackBy === 'network') &&
    isOptionalString(f.keyId) &&
    isOptionalString(f.chain) &&
    isOptionalNumber(f.customFrom) &&
    isOptionalNumber(f.customTo);
  if (!ok) return null;
  const filters: TStatisticFilters = {
    range: f.range as TStatisticFilters['range'],
    bucket: f.bucket as TStatisticFilters['bucket'],
    scope: f.scope as TStatisticFilters['scope'],
    metric: f.metric as TStatisticFilters['metric'],
    stackBy: f.stackBy as TStatisticFilters['stackBy'],
  };
  if (typeof f.keyId === 'string') filters.keyId = f.keyId;
  if (typeof f.chain === 'string') filters.chain = f.chain;
  if (typeof f.customFrom === 'number') filters.customFrom = f.customFrom;
  if (typeof f.customTo === 'number') filters.customTo = f.customTo;
  return filters;
}

/** Each answer is checked with its contract schema; one that does not fit is dropped, the rest kept. */
function parseAnswers(value: unknown): TCachedAnswers {
  if (!isObject(value)) return {};
  const answers: TCachedAnswers = {};
  const usage = ZReportSeriesResultSchema.safeParse(value.usage);
  if (usage.success) answers.usage = usage.data;
  const totals = ZReportCompositeInfoSchema.safeParse(value.totals);
  if (totals.success) answers.totals = totals.data;
  const top = ZTopMethodsResultSchema.safeParse(value.top);
  if (top.success) answers.top = top.data;
  const byKey = ZUsageByApikeyRowSchema.array().safeParse(value.byKey);
  if (byKey.success) answers.byKey = byKey.data;
  const byNetwork = ZUsageByNetworkRowSchema.array().safeParse(value.byNetwork);
  if (byNetwork.success) answers.byNetwork = byNetwork.data;
  return answers;
}

/** The stored value, or null when missing, not JSON, of another version or without valid filters. */
export function parseCachedStats(raw: string | null): TCachedStats | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isObject(value) || value.version !== CACHED_STATS_VERSION) return null;
  const filters = parseFilters(value.filters);
  if (!filters) return null;
  return {
    version: CACHED_STATS_VERSION,
    savedAt: typeof value.savedAt === 'number' ? value.savedAt : 0,
    filters,
    answers: parseAnswers(value.answers),
  };
}

export function readCachedStats(storage: TStorage = localStorage): TCachedStats | null {
  try {
    return parseCachedStats(storage.getItem(STORAGE_KEY.cachedStats));
  } catch {
    return null;
  }
}

export function writeCachedStats(
  value: Omit<TCachedStats, 'version'>,
  storage: TStorage = localStorage,
): void {
  try {
    storage.setItem(
      STORAGE_KEY.cachedStats,
      JSON.stringify({ version: CACHED_STATS_VERSION, ...value }),
    );
  } catch {
    // storage full or disabled: the copy only speeds up the next visit
  }
}
