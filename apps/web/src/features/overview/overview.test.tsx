/**
 * The /rpc landing page against a fake request client (only callRpc is replaced). The sparkline is drawn by
 * ECharts' SVG renderer, which jsdom can host; only the canvas zrender measures text with is stubbed.
 */
import type { TMethodName, TParamsIn, TReportParamsIn, TResult } from '@rpc/contract';
import { REPORT_BUCKET_MS, bucketStarts, startOfLocalDay } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import { resetLimitInfo } from '../../lib/limit-info';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, callRpc } from '../../lib/rpc-client';
import { OverviewPage } from './components/overview-page';
import {
  buildLast24HoursOption,
  daysOfRuLeft,
  last24HoursRange,
  nextTier,
  sumSeries,
  todayRange,
} from './utils/overview';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);
const HOUR = REPORT_BUCKET_MS.hour;
const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;

type THandlers = Partial<Record<TMethodName, (params: never) => unknown>>;

const limitInfo: TResult<'hub_getUserLimitInfo'> = {
  currentLimitRate: 20,
  currentLimitRateLevel: 'free',
  currentLimitRateOrder: 1,
  currentLimitRateValue: 400,
  currentLimitRateLevelView: 'Free',
  currentLimitRateTitleView: 'Free plan',
  reqPerSec: 20,
  ruPerSec: 400,
  concurrency: 10,
  ruBalance: 123_456,
  tiers: [
    { level: 'free', name: 'Free', order: 1, reqPerSec: 20, ruPerSec: 400, concurrency: 10 },
    {
      level: 'elementary',
      name: 'Elementary',
      order: 2,
      reqPerSec: 1000,
      ruPerSec: 40_000,
      concurrency: 100,
    },
  ],
};

const handlers: THandlers = {
  hub_getUserLimitInfo: () => limitInfo,
  hub_reportUserCompositeInfo: (p: TReportParamsIn) => ({
    from: p.from,
    to: p.to,
    requests: 4321,
    ru: 98_765,
    errors: 0,
    avgLatencyMs: 9,
    activeKeys: 7,
    activeNetworks: 1,
  }),
  hub_reportUsageInfoByApikey: () => ({
    list: Array.from({ length: 7 }, (_, i) => ({
      keyId: `k${i}`,
      name: `Key ${i + 1}`,
      deleted: i === 1,
      requests: 700 - i * 100,
      ru: 7000 - i * 1000,
      errors: 0,
      ruShare: 0.1,
    })),
  }),
  hub_reportUserRequestByApikey: (p: TReportParamsIn) => {
    const buckets = bucketStarts(p.from, p.to, 'hour', p.timeZone ?? 'UTC');
    return {
      bucket: 'hour',
      timeZone: p.timeZone,
      from: p.from,
      to: p.to,
      buckets,
      series: [
        { id: 'a', name: 'A', data: buckets.map(() => 2) },
        { id: 'b', name: 'B', data: buckets.map(() => 1) },
      ],
      total: buckets.length * 3,
    };
  },
};
let overrides: THandlers = {};

function calls<N extends TMethodName>(method: N) {
  return rpc.mock.calls.filter(([name]) => name === method).map(([, p]) => p as TParamsIn<N>);
}

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <MemoryRouter initialEntries={['/rpc']}>
          <OverviewPage />
        </MemoryRouter>
      </ConfigProvider>
    </QueryClientProvider>,
  );
}

beforeAll(async () => {
  await initI18n('en');
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

beforeEach(async () => {
  overrides = {};
  rpc.mockReset();
  rpc.mockImplementation(async (method, params) => {
    const handler = overrides[method] ?? handlers[method];
    if (!handler) throw new Error(`unexpected call ${method}`);
    return handler(params as never) as never;
  });
  localStorage.clear();
  resetLimitInfo();
  await act(() => i18n.changeLanguage('en'));
});

describe('overview ranges', () => {
  it('today runs from local midnight to the end of the current hour (Asia/Shanghai)', () => {
    const now = Date.UTC(2026, 10, 20, 1, 30); // 09:30 in Shanghai
    expect(todayRange(now, 'Asia/Shanghai')).toEqual({
      from: Date.UTC(2026, 10, 19, 16),
      to: Date.UTC(2026, 10, 20, 2),
    });
    expect(last24HoursRange(now, 'Asia/Shanghai')).toEqual({
      from: Date.UTC(2026, 10, 19, 2),
      to: Date.UTC(2026, 10, 20, 2),
    });
  });

  it('draws the sum of every key per hour, with both axes', () => {
    const from = Date.UTC(2026, 10, 19, 16);
    const result = {
      bucket: 'hour' as const,
      timeZone: 'Asia/Shanghai',
      from,
      to: from + 2 * HOUR,
      buckets: [from, from + HOUR],
      series: [
        { id: 'a', name: 'A', data: [1, 2] },
        { id: 'b', name: 'B', data: [3, 0] },
      ],
      total: 6,
    };
    expect(sumSeries(result)).toEqual([4, 2]);
    const option = buildLast24HoursOption(result, { requests: 'Requests', formatNumber: String });
    const xAxis = option.xAxis as {
      show?: boolean;
      data: string[];
      axisLabel: { interval: (i: number) => boolean; formatter: (v: string, i: number) => string };
    };
    expect(xAxis.data).toEqual(['2026-11-20 00:00', '2026-11-20 01:00']);
    expect(xAxis.show).not.toBe(false);
    // the hours on the axis, the date where the day starts
    expect(xAxis.axisLabel.interval(0)).toBe(true);
    expect(xAxis.axisLabel.formatter(xAxis.data[0]!, 0)).toBe('00:00\n11/20');
    const yAxis = option.yAxis as {
      show?: boolean;
      axisLabel: { formatter: (n: number) => string };
    };
    expect(yAxis.show).not.toBe(false);
    expect(yAxis.axisLabel.formatter(1000)).toBe('1000');
    expect((option.series as { type: string; data: number[] }[])[0]).toMatchObject({
      type: 'bar',
      data: [4, 2],
    });
  });

  it("estimates the days of RUs left at today's pace, and the next tier", () => {
    const HOUR_MS = 3_600_000;
    // 1,000 RUs in the 10 hours since midnight: 2,400 a day → 100,000 last 41 days
    expect(daysOfRuLeft(100_000, 1000, 10 * HOUR_MS)).toBe(41);
    expect(daysOfRuLeft(100_000, 0, 10 * HOUR_MS)).toBeNull();
    expect(daysOfRuLeft(100_000, 1000, HOUR_MS / 2)).toBeNull();
    expect(daysOfRuLeft(0, 1000, 10 * HOUR_MS)).toBeNull();
    expect(nextTier(limitInfo.tiers, 1)?.name).toBe('Elementary');
    expect(nextTier(limitInfo.tiers, 2)).toBeNull();
  });
});

describe('OverviewPage', () => {
  it("shows today's requests and RUs, the RUs left, the top 5 keys and the 24 h chart", async () => {
    const before = Date.now();
    renderPage();
    expect(await screen.findByText('4,321')).toBeInTheDocument();
    expect(screen.getByText("Today's requests")).toBeInTheDocument();
    expect(screen.getByText('RUs used today')).toBeInTheDocument();
    expect(screen.getByText('98,765')).toBeInTheDocument();
    expect(screen.getByText('RUs left')).toBeInTheDocument();
    expect(await screen.findByText('123,456')).toBeInTheDocument();
    // The endpoint page's "Requests today" name is not reused here.
    expect(screen.queryByText('Requests today')).toBeNull();

    const today = calls('hub_reportUserCompositeInfo')[0]!;
    expect(today).toMatchObject({ bucket: 'hour', scope: 'team', timeZone: TZ });
    expect(today.from).toBe(startOfLocalDay(before, TZ));
    expect(today.to).toBeGreaterThan(before);
    expect(calls('hub_reportUsageInfoByApikey')[0]).toEqual(today);

    const table = await screen.findByRole('table', { name: 'Top API keys today' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(5);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Key 1', '700', '7,000']);
    expect(within(rows[1]!).getByText('deleted')).toBeInTheDocument();

    const chart = await screen.findByRole('img', { name: 'Requests in the last 24 hours' });
    expect(chart).toHaveAttribute('data-points', '24');
    expect(chart).toHaveAttribute('data-total', '72');
    // a real chart: axis labels are drawn (ECharts' SVG text), not a bare sparkline
    await waitFor(() => expect(chart.querySelectorAll('svg text').length).toBeGreaterThan(4));
    const last24 = calls('hub_reportUserRequestByApikey')[0]!;
    expect(last24.to - last24.from).toBe(24 * HOUR);

    expect(screen.getByRole('link', { name: 'View detailed statistics' })).toHaveAttribute(
      'href',
      '/rpc/statistic',
    );
    expect(screen.getByRole('link', { name: 'Manage API keys and endpoints' })).toHaveAttribute(
      'href',
      '/rpc/endpoint',
    );
  });

  it('shows usage against the plan: tier, rates, the next tier and a way to billing', async () => {
    renderPage();
    const plan = (await screen.findByRole('heading', { name: 'Your plan' })).closest('.ant-card')!;
    expect(await within(plan as HTMLElement).findByText('Free')).toBeInTheDocument();
    expect(plan).toHaveTextContent('Up to 20 requests and 400 RUs per second');
    expect(plan).toHaveTextContent('Next tier: Elementary, up to 1,000 requests per second');
    expect(
      within(plan as HTMLElement).getByRole('link', { name: 'Upgrade or buy RUs' }),
    ).toHaveAttribute('href', '/rpc/billings');
    expect(
      within(plan as HTMLElement).getByRole('link', { name: 'Compare tiers' }),
    ).toHaveAttribute('href', '/rpc/endpoint?tab=limits');
  });

  it('links to the gateway docs', async () => {
    renderPage();
    const docs = await screen.findByRole('navigation', { name: 'Gateway docs' });
    const links = within(docs).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '/rpc/endpoint?tab=guide',
      '/rpc/endpoint?tab=limits',
      '/rpc/endpoint',
    ]);
    expect(links[0]).toHaveTextContent(
      'Using the gateway: requests, batches, WebSocket and errors',
    );
  });

  it('draws its cards at equal heights in a row', async () => {
    renderPage();
    await screen.findByText('4,321');
    const cards = screen.getAllByText(/Today's requests|RUs used today|RUs left|Your plan/);
    expect(cards).toHaveLength(4);
    for (const label of cards) expect(label.closest('.ant-card')).toHaveStyle({ height: '100%' });
  });

  it('shows an error with a retry', async () => {
    let failing = true;
    overrides.hub_reportUserCompositeInfo = ((p: TReportParamsIn) => {
      if (failing)
        throw new RpcCallError('hub_reportUserCompositeInfo', {
          code: 10500,
          message: 'boom',
          messageZh: 'boom',
        });
      return handlers.hub_reportUserCompositeInfo!(p as never);
    }) as never;
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Today's usage could not be loaded.");
    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('4,321')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('speaks Chinese', async () => {
    await act(() => i18n.changeLanguage('zh'));
    renderPage();
    expect(await screen.findByText('今日请求数')).toBeInTheDocument();
    expect(screen.getByText('剩余 RU')).toBeInTheDocument();
  });
});
