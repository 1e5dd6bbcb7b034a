/** The landing page's ranges, its 24-hour chart and the plan arithmetic, pure. */
import type { TReportSeriesResult } from '@rpc/contract';
import { bucketStart, nextBucket, startOfLocalDay } from '@rpc/contract';
import { timeAxisLabels } from '../../../lib/chart-time-axis';
import { formatZonedDateTime } from '../../../lib/format-date-time';
import type { TChartOption } from '../../../lib/use-echarts';

const HOUR_MS = 3_600_000;

export type TTimeRange = { from: number; to: number };

/**
 * Today in the user's zone: local midnight to the end of the current hour (whole hour buckets, and a query
 * key that stays the same within the hour).
 */
export function todayRange(now: number, timeZone: string): TTimeRange {
  return {
    from: startOfLocalDay(now, timeZone),
    to: nextBucket(bucketStart(now, 'hour', timeZone), 'hour', timeZone),
  };
}

/** The 24 whole hours up to the end of the current one. */
export function last24HoursRange(now: number, timeZone: string): TTimeRange {
  const to = nextBucket(bucketStart(now, 'hour', timeZone), 'hour', timeZone);
  return { from: to - 24 * HOUR_MS, to };
}

/** Per-bucket sum of every series: the account's requests per hour. */
export function sumSeries(result: TReportSeriesResult): number[] {
  return result.buckets.map((_, i) => result.series.reduce((sum, s) => sum + (s.data[i] ?? 0), 0));
}

/**
 * Requests per hour as bars with both axes: the hours (dated where a day starts) and the count. The categories are
 * the hours' full local date and time, the tooltip's title.
 */
export function buildLast24HoursOption(
  result: TReportSeriesResult,
  labels: { requests: string; formatNumber: (n: number) => string },
): TChartOption {
  const axis = timeAxisLabels(result.buckets, result.bucket, result.timeZone, 8);
  const isLabelled = (index: number) => (axis.labels[index] ?? '') !== '';
  return {
    animation: false,
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (value) => labels.formatNumber(Number(value)),
    },
    xAxis: {
      type: 'category',
      data: result.buckets.map((b) => formatZonedDateTime(b, result.timeZone)),
      axisTick: { interval: isLabelled },
      axisLabel: {
        interval: isLabelled,
        hideOverlap: true,
        // two lines where a day starts (time, then date)
        lineHeight: 16,
        formatter: (_value: string, index: number) => axis.labels[index] ?? '',
      },
    },
    yAxis: {
      type: 'value',
      min: 0,
      minInterval: 1,
      axisLabel: { formatter: (value: number) => labels.formatNumber(value) },
    },
    series: [
      {
        type: 'bar',
        id: 'requests',
        name: labels.requests,
        data: sumSeries(result),
        barMaxWidth: 24,
      },
    ],
  };
}

/**
 * How many days the RU balance lasts at today's pace (RUs used since local midnight, over the time elapsed);
 * null before an hour has passed or with nothing used, when a pace would mean nothing.
 */
export function daysOfRuLeft(balance: number, ruToday: number, elapsedMs: number): number | null {
  if (ruToday <= 0 || elapsedMs < HOUR_MS || balance <= 0) return null;
  const perDay = (ruToday / elapsedMs) * 24 * HOUR_MS;
  return Math.floor(balance / perDay);
}

export type TTierStep = { name: string; order: number; reqPerSec: number; ruPerSec: number };

/** The next tier up from the current one (lowest order above it), or null at the top. */
export function nextTier<T extends TTierStep>(tiers: readonly T[], currentOrder: number): T | null {
  return (
    [...tiers].filter((t) => t.order > currentOrder).sort((a, b) => a.order - b.order)[0] ?? null
  );
}
