/** The landing page's ranges and its sparkline, pure. */
import type { TReportSeriesResult } from '@rpc/contract';
import { bucketStart, nextBucket, startOfLocalDay } from '@rpc/contract';
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

/** A small area line without axes; the tooltip names the hour and the count. */
export function buildSparklineOption(
  result: TReportSeriesResult,
  labels: { requests: string; formatNumber: (n: number) => string },
): TChartOption {
  return {
    animation: false,
    grid: { left: 2, right: 2, top: 4, bottom: 4 },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (value) => labels.formatNumber(Number(value)),
    },
    // Hidden axis: its categories are only the tooltip's title, the hour's full local date and time.
    xAxis: {
      type: 'category',
      show: false,
      boundaryGap: false,
      data: result.buckets.map((b) => formatZonedDateTime(b, result.timeZone)),
    },
    yAxis: { type: 'value', show: false, min: 0 },
    series: [
      {
        type: 'line',
        id: 'requests',
        name: labels.requests,
        data: sumSeries(result),
        showSymbol: false,
        smooth: true,
        areaStyle: { opacity: 0.2 },
        lineStyle: { width: 2 },
      },
    ],
  };
}
