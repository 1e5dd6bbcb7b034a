/**
 * The /rpc landing page against a fake request client (only callRpc is replaced). The sparkline is drawn by
 * ECharts' SVG renderer, which jsdom can host; only the canvas zrender measures text with is stubbed.
 */
import type { TMethodName, TParamsIn, TReportParamsIn, TResult } from '@rpc/contract';
import { REPORT_BUCKET_MS, bucketStarts, startOfLocalDay } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import { resetLimitInfo } from '../../lib/limit-info';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, callRpc } from '../../lib/rpc-client';
import { OverviewPage } from './components/overview-page';
import { buildSparklineOption, last24HoursRange, sumSeries, todayRange } from './utils/overview';

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
  tiers: [],
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

  it('draws the sum of every key per hour', () => {
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
    const option = buildSparklineOption(result, { requests: 'Requests', formatNumber: String });
    expect((option.xAxis as { data: string[] }).data).toEqual([
      '2026-11-20 00:00',
      '2026-11-20 01:00',
    ]);
    expect((option.series as { data: number[] }[])[0]!.data).toEqual([4, 2]);
  });
});

describe('OverviewPage', () => {
  it("shows today's requests and RUs, the RU balance, the top 5 keys and the 24 h sparkline", async () => {
    const before = Date.now();
    renderPage();
    expect(await screen.findByText('4,321')).toBeInTheDocument();
    expect(screen.getByText("Today's requests")).toBeInTheDocument();
    expect(screen.getByText('RUs used today')).toBeInTheDocument();
    expect(screen.getByText('98,765')).toBeInTheDocument();
    expect(screen.getByText('Remaining RUs')).toBeInTheDocument();
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

    const spark = await screen.findByRole('img', { name: 'Requests in the last 24 hours' });
    expect(spark).toHaveAttribute('data-points', '24');
    expect(spark).toHaveAttribute('data-total', '72');
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
