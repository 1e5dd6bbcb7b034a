/** The statistic page's pure parts: ranges and intervals, chart options, CSV, the cached-stats value. */
import type {
  TRefusalsResult,
  TReportCompositeSeriesResult,
  TReportSeriesResult,
} from '@rpc/contract';
import { REPORT_MAX_RANGE_MS, bucketStarts } from '@rpc/contract';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEY } from '../../lib/storage-keys';
import type { TChartOption } from '../../lib/use-echarts';
import {
  CACHED_STATS_VERSION,
  parseCachedStats,
  readCachedStats,
  writeCachedStats,
} from './utils/cached-stats';
import {
  buildTopMethodsChartOption,
  buildUsageChartOption,
  bucketTotals,
  toSeriesResult,
} from './utils/chart-options';
import { buildStatisticCsvRows, csvCell, toCsv } from './utils/csv';
import { refusalRows, refusalSeries } from './utils/refusals';
import type { TStatisticFilters } from './utils/filters';
import {
  DEFAULT_FILTERS,
  buildReportParams,
  defaultBucket,
  isBucketAllowed,
  rangeErrorCode,
  resolveRange,
} from './utils/filters';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 20, 6, 30);
const SH = 'Asia/Shanghai';

/** Three hour buckets from 2026-11-20 00:00 Shanghai (16:00 UTC the day before). */
function hourResult(): TReportSeriesResult {
  const from = Date.UTC(2026, 10, 19, 16);
  return {
    bucket: 'hour',
    timeZone: SH,
    from,
    to: from + 3 * HOUR,
    buckets: bucketStarts(from, from + 3 * HOUR, 'hour', SH),
    series: [
      { id: 'k1', name: 'Prod', data: [1, 2, 3] },
      { id: 'k2', name: '=HYPERLINK("x")', deleted: true, data: [0, 5, 0] },
    ],
    total: 11,
  };
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** The x axis labels as drawn: the buckets the axis labels, formatted. */
function axisLabels(option: TChartOption): string[] {
  const axis = option.xAxis as {
    data: string[];
    axisLabel: {
      interval: (index: number) => boolean;
      formatter: (value: string, index: number) => string;
    };
  };
  return axis.data.flatMap((value, i) =>
    axis.axisLabel.interval(i) ? [axis.axisLabel.formatter(value, i)] : [],
  );
}

describe('ranges and intervals', () => {
  it('a preset ends now and starts its length before', () => {
    expect(resolveRange({ ...DEFAULT_FILTERS, range: '7d' }, NOW)).toEqual({
      from: NOW - 7 * DAY,
      to: NOW,
    });
    expect(resolveRange({ ...DEFAULT_FILTERS, range: 'custom' }, NOW)).toBeNull();
    expect(
      resolveRange({ ...DEFAULT_FILTERS, range: 'custom', customFrom: 1, customTo: 2 }, NOW),
    ).toEqual({ from: 1, to: 2 });
  });

  it.each([
    ['1h', 'minute'],
    ['24h', 'hour'],
    ['7d', 'hour'],
    ['30d', 'day'],
  ] as const)('%s defaults to %s (pickReportBucket)', (preset, bucket) => {
    const range = resolveRange({ ...DEFAULT_FILTERS, range: preset }, NOW)!;
    expect(defaultBucket(range, NOW)).toBe(bucket);
  });

  it('disables an interval too fine for the range (REPORT_MAX_RANGE_MS) or past minute retention', () => {
    const month = { from: NOW - 30 * DAY, to: NOW };
    expect(isBucketAllowed('minute', month, NOW)).toBe(false);
    expect(isBucketAllowed('hour', month, NOW)).toBe(true);
    expect(isBucketAllowed('hour', { from: NOW - 40 * DAY, to: NOW }, NOW)).toBe(false);
    expect(isBucketAllowed('day', { from: NOW - 40 * DAY, to: NOW }, NOW)).toBe(true);
    expect(isBucketAllowed('minute', { from: NOW - HOUR, to: NOW }, NOW)).toBe(true);
    const oldHour = { from: NOW - 20 * DAY, to: NOW - 20 * DAY + HOUR };
    expect(isBucketAllowed('minute', oldHour, NOW)).toBe(false);
    expect(defaultBucket(oldHour, NOW)).toBe('hour');
    expect(REPORT_MAX_RANGE_MS.minute).toBe(DAY);
  });

  it('refuses a bad custom range with the server’s error code, before any call', () => {
    expect(rangeErrorCode({ from: NOW, to: NOW - HOUR }, 'hour', SH, NOW)).toBe(10601);
    expect(rangeErrorCode({ from: NOW - 2 * DAY, to: NOW }, 'minute', SH, NOW)).toBe(10602);
    expect(rangeErrorCode({ from: NOW + HOUR, to: NOW + 2 * HOUR }, 'hour', SH, NOW)).toBe(10603);
    expect(rangeErrorCode({ from: NOW - 20 * DAY, to: NOW - 19 * DAY }, 'minute', SH, NOW)).toBe(
      10604,
    );
    expect(rangeErrorCode({ from: NOW - HOUR, to: NOW }, 'hour', 'Mars/Olympus', NOW)).toBe(10607);
    expect(rangeErrorCode({ from: NOW - HOUR, to: NOW }, 'minute', SH, NOW)).toBeNull();
  });

  it('builds report params: team scope without a key, apikey scope with one, chain when chosen', () => {
    const range = { from: NOW - DAY, to: NOW };
    expect(buildReportParams(DEFAULT_FILTERS, range, SH)).toEqual({
      from: NOW - DAY,
      to: NOW,
      bucket: 'hour',
      timeZone: SH,
      scope: 'team',
    });
    const oneKey: TStatisticFilters = {
      ...DEFAULT_FILTERS,
      scope: 'apikey',
      keyId: 'k1',
      chain: 'ethereum',
    };
    expect(buildReportParams(oneKey, range, SH)).toMatchObject({
      scope: 'apikey',
      keyId: 'k1',
      chain: 'ethereum',
    });
    // apikey scope without a key yet falls back to team (the page waits for a key anyway)
    expect(buildReportParams({ ...oneKey, keyId: undefined }, range, SH).scope).toBe('team');
  });
});

describe('chart options', () => {
  it('stacks one bar series per key, labels buckets HH:mm in the report zone', () => {
    const option = buildUsageChartOption(hourResult(), { deleted: 'deleted', formatNumber: fmt });
    // the first label carries the date
    expect(axisLabels(option)).toEqual(['00:00\n11/20', '01:00', '02:00']);
    // the tooltip's title: the bucket's full local date and time
    expect((option.xAxis as { data: string[] }).data[0]).toBe('2026-11-20 00:00');
    const series = option.series as { name: string; stack: string; data: number[] }[];
    expect(series.map((s) => s.name)).toEqual(['Prod', '=HYPERLINK("x") (deleted)']);
    expect(series.every((s) => s.stack === 'usage')).toBe(true);
    expect(series[1]!.data).toEqual([0, 5, 0]);
  });

  it('draws stacked areas instead of bars for many buckets', () => {
    const from = Date.UTC(2026, 10, 19, 16);
    const buckets = bucketStarts(from, from + DAY, 'minute', SH);
    const result: TReportSeriesResult = {
      ...hourResult(),
      bucket: 'minute',
      to: from + DAY,
      buckets,
      series: [{ id: 'k1', name: 'Prod', data: buckets.map(() => 1) }],
      total: buckets.length,
    };
    const option = buildUsageChartOption(result, { deleted: 'd', formatNumber: fmt });
    const series = option.series as { type: string; stack: string }[];
    expect(series[0]).toMatchObject({ type: 'line', stack: 'usage' });
    // a day by minute: every two hours, the date at the start of each day
    expect(axisLabels(option).slice(0, 2)).toEqual(['00:00\n11/20', '02:00']);
  });

  it('over several days by hour, labels the days, not 00:00, 07:00… (issue item 8)', () => {
    const from = Date.UTC(2026, 10, 13, 16); // 11/14 00:00 in Shanghai
    const buckets = bucketStarts(from, from + 7 * DAY, 'hour', SH);
    const result: TReportSeriesResult = {
      ...hourResult(),
      from,
      to: from + 7 * DAY,
      buckets,
      series: [{ id: 'k1', name: 'Prod', data: buckets.map(() => 1) }],
      total: buckets.length,
    };
    const option = buildUsageChartOption(result, { deleted: 'd', formatNumber: fmt });
    expect(axisLabels(option)).toEqual([
      '11/14',
      '11/15',
      '11/16',
      '11/17',
      '11/18',
      '11/19',
      '11/20',
    ]);
  });

  it('labels day buckets MM/DD at local midnight', () => {
    const from = Date.UTC(2026, 10, 17, 16); // 11/18 00:00 in Shanghai
    const result: TReportSeriesResult = {
      ...hourResult(),
      bucket: 'day',
      from,
      to: from + 2 * DAY,
      buckets: bucketStarts(from, from + 2 * DAY, 'day', SH),
      series: [{ id: 'k1', name: 'Prod', data: [4, 5] }],
      total: 9,
    };
    const option = buildUsageChartOption(result, { deleted: 'd', formatNumber: fmt });
    expect(axisLabels(option)).toEqual(['11/18', '11/19']);
    expect((option.xAxis as { data: string[] }).data).toEqual(['2026-11-18', '2026-11-19']);
  });

  it('picks one metric out of a composite answer; a plain answer passes through', () => {
    const { total: _total, series: _series, ...frame } = hourResult();
    const composite: TReportCompositeSeriesResult = {
      ...frame,
      series: [{ id: 'eth', name: 'Ethereum', requests: [1, 0, 2], ru: [10, 0, 20] }],
      totalRequests: 3,
      totalRu: 30,
    };
    const ru = toSeriesResult(composite, 'ru');
    expect(ru.series).toEqual([{ id: 'eth', name: 'Ethereum', data: [10, 0, 20] }]);
    expect(ru.total).toBe(30);
    expect(toSeriesResult(composite, 'requests').total).toBe(3);
    const plain = hourResult();
    expect(toSeriesResult(plain, 'ru')).toBe(plain);
    expect(bucketTotals(plain)).toEqual([1, 7, 3]);
  });

  it('shows the top methods most costly first, top to bottom', () => {
    const option = buildTopMethodsChartOption(
      {
        from: 0,
        to: 1,
        totalRu: 100,
        list: [
          { method: 'eth_call', requests: 2, ru: 60, ruShare: 0.6 },
          { method: 'eth_blockNumber', requests: 4, ru: 40, ruShare: 0.4 },
        ],
      },
      { ru: 'RUs', formatNumber: fmt },
    );
    // a category y axis draws its first entry at the bottom
    expect((option.yAxis as { data: string[] }).data).toEqual(['eth_blockNumber', 'eth_call']);
    expect((option.series as { data: number[] }[])[0]!.data).toEqual([40, 60]);
  });
});

describe('CSV', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@cmd', "'@cmd"],
    ['=1,2', `"'=1,2"`],
    [42, '42'],
    [null, ''],
  ] as const)('cell %j -> %s', (value, out) => {
    expect(csvCell(value)).toBe(out);
  });

  it('joins records with CRLF (RFC 4180)', () => {
    expect(
      toCsv([
        ['a', 1],
        ['b,c', 2],
      ]),
    ).toBe('a,1\r\n"b,c",2\r\n');
  });

  it('writes the series with local times, then the per-key and per-network rows', () => {
    const rows = buildStatisticCsvRows({
      series: hourResult(),
      byKey: [
        { keyId: 'k1', name: 'Prod', deleted: false, requests: 6, ru: 60, errors: 1, ruShare: 0.6 },
        { keyId: 'k2', name: '-x', deleted: true, requests: 5, ru: 40, errors: 0, ruShare: 0.4 },
      ],
      byNetwork: [{ chain: 'eth', name: 'Ethereum', requests: 11, ru: 100, errors: 1, ruShare: 1 }],
      labels: {
        metric: 'Requests over time',
        time: 'Time',
        total: 'Total',
        deleted: 'deleted',
        byKeyTitle: 'Usage by API key',
        byNetworkTitle: 'Usage by network',
        apiKey: 'API key',
        network: 'Network',
        requests: 'Requests',
        ru: 'RUs',
        errors: 'Errors',
        share: 'Share (%)',
      },
    });
    const text = toCsv(rows);
    const lines = text.split('\r\n');
    expect(lines.slice(0, 5)).toEqual([
      'Requests over time',
      `Time (Asia/Shanghai),Prod,"'=HYPERLINK(""x"") (deleted)",Total`,
      '2026-11-20 00:00,1,0,1',
      '2026-11-20 01:00,2,5,7',
      '2026-11-20 02:00,3,0,3',
    ]);
    expect(lines).toContain('Prod,6,60,1,60.00');
    expect(lines).toContain("'-x (deleted),5,40,0,40.00");
    expect(lines).toContain('Ethereum,11,100,1,100.00');
    expect(lines).toContain('Usage by network');
  });
});

describe('cached-stats value (SPEC §9)', () => {
  const filters: TStatisticFilters = { ...DEFAULT_FILTERS, range: '7d', chain: 'eth' };
  const good = {
    version: CACHED_STATS_VERSION,
    savedAt: 5,
    filters,
    answers: {
      usage: hourResult(),
      byKey: [
        { keyId: 'k1', name: 'Prod', deleted: false, requests: 1, ru: 2, errors: 0, ruShare: 1 },
      ],
    },
  };

  it('reads back what was written', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    writeCachedStats({ savedAt: 5, filters, answers: good.answers }, storage);
    expect(store.has(STORAGE_KEY.cachedStats)).toBe(true);
    expect(readCachedStats(storage)).toEqual(good);
  });

  it.each([
    ['missing', null],
    ['not JSON', '{oops'],
    ['an array', '[]'],
    ['an old version', JSON.stringify({ ...good, version: 0 })],
    ['no version', JSON.stringify({ filters, answers: {} })],
    ['unknown range', JSON.stringify({ ...good, filters: { ...filters, range: '2y' } })],
    ['bad bucket', JSON.stringify({ ...good, filters: { ...filters, bucket: 'week' } })],
    ['bad key id', JSON.stringify({ ...good, filters: { ...filters, keyId: 5 } })],
  ])('ignores a value that is %s', (_, raw) => {
    expect(parseCachedStats(raw)).toBeNull();
  });

  it('drops an answer that does not fit its schema and keeps the rest', () => {
    const raw = JSON.stringify({
      ...good,
      answers: { ...good.answers, usage: { bucket: 'hour', series: 'x' }, totals: 7 },
    });
    const parsed = parseCachedStats(raw)!;
    expect(parsed.answers.usage).toBeUndefined();
    expect(parsed.answers.totals).toBeUndefined();
    expect(parsed.answers.byKey).toHaveLength(1);
    expect(parsed.filters).toEqual(filters);
  });
});

describe('refusals', () => {
  const result: TRefusalsResult = {
    ...hourResult(),
    series: [
      { code: -32005, data: [3, 0, 0], total: 3 },
      { code: -32099, data: [0, 1, 0], total: 1 },
    ],
    total: 4,
    errors: [0, 0, 4],
    totalErrors: 4,
  };

  it('names each code, its HTTP status and share, node errors last', () => {
    expect(refusalRows(result)).toEqual([
      { id: '-32005', code: -32005, reason: 'rateLimited', status: 429, count: 3, share: 3 / 8 },
      { id: '-32099', code: -32099, reason: 'other', status: null, count: 1, share: 1 / 8 },
      { id: 'node-errors', code: null, reason: 'nodeErrors', status: null, count: 4, share: 0.5 },
    ]);
    expect(
      refusalRows({ ...result, series: [], total: 0, errors: [0, 0, 0], totalErrors: 0 }),
    ).toEqual([]);
  });

  it('draws one series per code and the node errors', () => {
    const chart = refusalSeries(result, (reason, code) => `${reason}:${code}`);
    expect(chart.series.map((s) => [s.id, s.name, s.data])).toEqual([
      ['-32005', 'rateLimited:-32005', [3, 0, 0]],
      ['-32099', 'other:-32099', [0, 1, 0]],
      ['node-errors', 'nodeErrors:null', [0, 0, 4]],
    ]);
    expect(chart.total).toBe(8);
  });
});
