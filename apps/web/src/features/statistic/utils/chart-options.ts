/** ECharts options built from report results: pure, so what a chart shows is tested without drawing it. */
import type {
  TReportCompositeSeriesResult,
  TReportSeriesResult,
  TTopMethodsResult,
} from '@rpc/contract';
import { timeAxisLabels } from '../../../lib/chart-time-axis';
import { formatZonedDateTime } from '../../../lib/format-date-time';
import type { TChartOption } from '../../../lib/use-echarts';
import type { TMetric } from './filters';

/** What the "usage over time" methods answer: one metric per series, or both (the composite methods). */
export type TUsageAnswer = TReportSeriesResult | TReportCompositeSeriesResult;

function isComposite(answer: TUsageAnswer): answer is TReportCompositeSeriesResult {
  return 'totalRequests' in answer;
}

/** One metric's series out of any usage answer; a plain series answer passes through unchanged. */
export function toSeriesResult(answer: TUsageAnswer, metric: TMetric): TReportSeriesResult {
  if (!isComposite(answer)) return answer;
  const { series, totalRequests, totalRu, ...frame } = answer;
  return {
    ...frame,
    series: series.map((s) => ({
      id: s.id,
      name: s.name,
      ...(s.deleted ? { deleted: true } : {}),
      data: metric === 'ru' ? s.ru : s.requests,
    })),
    total: metric === 'ru' ? totalRu : totalRequests,
  };
}

/** Per-bucket sum over every series (the "total" line of the data table and the CSV). */
export function bucketTotals(result: TReportSeriesResult): number[] {
  return result.buckets.map((_, i) => result.series.reduce((sum, s) => sum + (s.data[i] ?? 0), 0));
}

export type TSeriesLabels = {
  /** appended to the name of a key deleted since */
  deleted: string;
  formatNumber: (n: number) => string;
};

/** A series' display name: the key or network name, marked when the key is deleted. */
export function seriesName(series: { name: string; deleted?: boolean }, labels: TSeriesLabels) {
  return series.deleted ? `${series.name} (${labels.deleted})` : series.name;
}

/** A bucket's full name in its zone: the date for a day, the date and time otherwise. */
export function bucketTitle(ms: number, bucket: TReportSeriesResult['bucket'], timeZone: string) {
  const full = formatZonedDateTime(ms, timeZone);
  return bucket === 'day' ? full.slice(0, 10) : full;
}

/** Up to this many buckets the chart draws bars; beyond, stacked areas (a path per series, not a rect per bucket). */
export const MAX_BAR_BUCKETS = 96;

/**
 * Usage over time stacked by key or network, axis labels in the report's time zone: bars for a few buckets,
 * areas for many (a day by minute is 1,440 buckets; 50 keys of bars would be 72,000 shapes).
 */
export function buildUsageChartOption(
  result: TReportSeriesResult,
  labels: TSeriesLabels,
): TChartOption {
  // The categories are the full local date and time (the tooltip's title); the axis labels round local times
  // and dates the first label of every day (lib/chart-time-axis.ts).
  const categories = result.buckets.map((b) => bucketTitle(b, result.bucket, result.timeZone));
  const { labels: axisLabels } = timeAxisLabels(result.buckets, result.bucket, result.timeZone);
  const isLabelled = (index: number) => (axisLabels[index] ?? '') !== '';
  const isBars = result.buckets.length <= MAX_BAR_BUCKETS;
  return {
    animation: false,
    grid: { left: 8, right: 24, top: 40, bottom: 8, containLabel: true },
    legend: { type: 'scroll', top: 0 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (value) => labels.formatNumber(Number(value)),
    },
    xAxis: {
      type: 'category',
      data: categories,
      boundaryGap: isBars,
      axisTick: { interval: isLabelled },
      axisLabel: {
        interval: isLabelled,
        hideOverlap: true,
        // two lines where a day starts (time, then date)
        lineHeight: 16,
        formatter: (_value: string, index: number) => axisLabels[index] ?? '',
      },
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      axisLabel: { formatter: (value: number) => labels.formatNumber(value) },
    },
    series: result.series.map((s) =>
      isBars
        ? {
            type: 'bar' as const,
            id: s.id,
            name: seriesName(s, labels),
            stack: 'usage',
            data: s.data,
            emphasis: { focus: 'series' as const },
            barMaxWidth: 32,
          }
        : {
            type: 'line' as const,
            id: s.id,
            name: seriesName(s, labels),
            stack: 'usage',
            data: s.data,
            showSymbol: false,
            areaStyle: { opacity: 0.6 },
            lineStyle: { width: 1 },
            emphasis: { focus: 'series' as const },
          },
    ),
  };
}

/** The top methods as horizontal bars of RU cost, the most costly on top. */
export function buildTopMethodsChartOption(
  top: TTopMethodsResult,
  labels: { ru: string; formatNumber: (n: number) => string },
): TChartOption {
  const rows = [...top.list].reverse();
  return {
    animation: false,
    grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (value) => labels.formatNumber(Number(value)),
    },
    xAxis: {
      type: 'value',
      minInterval: 1,
      axisLabel: { formatter: (value: number) => labels.formatNumber(value) },
    },
    yAxis: { type: 'category', data: rows.map((r) => r.method) },
    series: [
      {
        type: 'bar',
        id: 'ru',
        name: labels.ru,
        data: rows.map((r) => r.ru),
        barMaxWidth: 24,
      },
    ],
  };
}
