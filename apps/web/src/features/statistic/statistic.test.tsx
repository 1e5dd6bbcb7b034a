/**
 * The /rpc/statistic page against a fake request client (only callRpc, the network boundary, is replaced).
 * ECharts draws for real with its SVG renderer, which jsdom can host; nothing of echarts is mocked (only the
 * canvas zrender would measure text with, which jsdom lacks).
 */
import type { TMethodName, TParamsIn, TReportParamsIn, TResult } from '@rpc/contract';
import { resolveReportFrame } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, callRpc } from '../../lib/rpc-client';
import { useSession } from '../../lib/session';
import { STORAGE_KEY } from '../../lib/storage-keys';
import { StatisticPage } from './components/statistic-page';
import { CACHED_STATS_VERSION } from './utils/cached-stats';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);

// Every step redraws charts and Ant Design tables in jsdom: seconds per test on a busy machine.
vi.setConfig({ testTimeout: 45_000 });
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const KEYS = [
  { keyId: '00000000-0000-4000-8000-000000000001', name: 'Prod' },
  { keyId: '00000000-0000-4000-8000-000000000002', name: 'Staging' },
];

type THandlers = Partial<Record<TMethodName, (params: never) => unknown>>;

/** The fake server: every bucket of the frame has 2 requests (20 RUs) on Prod and 1 (10 RUs) on Staging. */
function frameOf(p: TReportParamsIn) {
  const check = resolveReportFrame(
    { from: p.from, to: p.to, bucket: p.bucket, timeZone: p.timeZone ?? 'UTC' },
    Date.now(),
    14,
  );
  if (!check.ok) throw new Error(`bad range ${check.problem}`);
  return check.frame;
}

function series(
  p: TReportParamsIn,
  per: [number, number],
): TResult<'hub_reportUserRequestByApikey'> {
  const frame = frameOf(p);
  const list = KEYS.filter((k) => !p.keyId || k.keyId === p.keyId).map((k, i) => ({
    id: k.keyId,
    name: k.name,
    data: frame.buckets.map(() => per[i]!),
  }));
  return {
    ...frame,
    series: list,
    total: list.reduce((s, l) => s + l.data.reduce((a, b) => a + b, 0), 0),
  };
}

let usageScale = 1;

const handlers: THandlers = {
  hub_getPureApiKeys: () => ({ list: KEYS }),
  hub_getSupportChains: () => ({
    list: [
      { id: 'ethereum', name: 'Ethereum' },
      { id: 'localnet', name: 'Localnet' },
    ],
  }),
  hub_reportUserRequestByApikey: (p: TReportParamsIn) => series(p, [2 * usageScale, usageScale]),
  hub_reportUserRuUsageByApikey: (p: TReportParamsIn) =>
    series(p, [20 * usageScale, 10 * usageScale]),
  hub_reportApikeyRequest: (p: TReportParamsIn) => series(p, [2, 1]),
  hub_reportApikeyRuUsage: (p: TReportParamsIn) => series(p, [20, 10]),
  hub_reportUserCompositeInfoByNetwork: (p: TReportParamsIn) => {
    const frame = frameOf(p);
    return {
      ...frame,
      series: [
        {
          id: 'ethereum',
          name: 'Ethereum',
          requests: frame.buckets.map(() => 3 * usageScale),
          ru: frame.buckets.map(() => 30 * usageScale),
        },
      ],
      totalRequests: 3 * usageScale * frame.buckets.length,
      totalRu: 30 * usageScale * frame.buckets.length,
    };
  },
  hub_reportUserCompositeInfo: (p: TReportParamsIn) => ({
    from: p.from,
    to: p.to,
    requests: 1234 * usageScale,
    ru: 12_340 * usageScale,
    errors: 2 * usageScale,
    avgLatencyMs: usageScale ? 12.4 : null,
    activeKeys: 2 * usageScale,
    activeNetworks: usageScale,
  }),
  hub_reportApikeyCompositeInfo: (p: TReportParamsIn) => ({
    from: p.from,
    to: p.to,
    requests: 800,
    ru: 8000,
    errors: 0,
    avgLatencyMs: 10,
    activeKeys: 1,
    activeNetworks: 1,
  }),
  hub_reportUserTop5MethodRuCostByApikey: (p: TReportParamsIn) => ({
    from: p.from,
    to: p.to,
    totalRu: 12_340 * usageScale,
    list: usageScale
      ? [
          { method: 'eth_call', requests: 500, ru: 10_000, ruShare: 0.81 },
          { method: 'eth_blockNumber', requests: 734, ru: 2340, ruShare: 0.19 },
        ]
      : [],
  }),
  hub_reportUserTop5MethodRuCostByNetwork: (p: TReportParamsIn) => ({
    from: p.from,
    to: p.to,
    totalRu: 100,
    list: [{ method: 'eth_getLogs', requests: 2, ru: 100, ruShare: 1 }],
  }),
  hub_reportUsageInfoByApikey: () => ({
    list: usageScale
      ? [
          {
            keyId: KEYS[0]!.keyId,
            name: 'Prod',
            deleted: false,
            requests: 1000,
            ru: 10_000,
            errors: 2,
            ruShare: 0.81,
          },
          {
            keyId: KEYS[1]!.keyId,
            name: 'Old key',
            deleted: true,
            requests: 234,
            ru: 2340,
            errors: 0,
            ruShare: 0.19,
          },
        ]
      : [],
  }),
  hub_reportUserRefusals: (p: TReportParamsIn) => {
    const frame = frameOf(p);
    const at = (n: number) => frame.buckets.map((_, i) => (i === 0 ? n : 0));
    return {
      ...frame,
      series: [
        { code: -32005, data: at(6), total: 6 },
        { code: -32004, data: at(2), total: 2 },
      ],
      total: 8,
      errors: at(2 * usageScale),
      totalErrors: 2 * usageScale,
    };
  },
  hub_reportUsageInfoByNetwork: () => ({
    list: usageScale
      ? [
          {
            chain: 'ethereum',
            name: 'Ethereum',
            requests: 1234,
            ru: 12_340,
            errors: 2,
            ruShare: 1,
          },
        ]
      : [],
  }),
};
let overrides: THandlers = {};

function calls<N extends TMethodName>(method: N) {
  return rpc.mock.calls.filter(([name]) => name === method).map(([, p]) => p as TParamsIn<N>);
}
function lastCall<N extends TMethodName>(method: N) {
  return calls(method).at(-1);
}

function renderPage() {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <MemoryRouter initialEntries={['/rpc/statistic']}>
          <StatisticPage />
        </MemoryRouter>
      </ConfigProvider>
    </QueryClientProvider>,
  );
}

/** Ant Design hides the radio input from the pointer; a user clicks its label. */
async function choose(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(screen.getByRole('radio', { name }).closest('label')!);
}

/** The Interval select: opens it and returns the option named `name`. */
async function intervalOption(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(screen.getByRole('combobox', { name: 'Interval' }));
  return screen.findByRole('option', { name });
}

async function chart(name = 'Requests over time') {
  return screen.findByRole('img', { name });
}

beforeAll(async () => {
  await initI18n('en');
  // jsdom has no canvas; zrender then measures text by estimate, but asks (and jsdom logs) every time.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

beforeEach(async () => {
  usageScale = 1;
  overrides = {};
  rpc.mockReset();
  rpc.mockImplementation(async (method, params) => {
    const handler = overrides[method] ?? handlers[method];
    if (!handler) throw new Error(`unexpected call ${method}`);
    return handler(params as never) as never;
  });
  localStorage.clear();
  // A personal account unless a test acts for a team.
  useSession.setState({ token: 't', user: null, loginType: 'personal', teamId: null });
  await act(() => i18n.changeLanguage('en'));
});

function actForTeam() {
  useSession.setState({ loginType: 'team', teamId: 'team-1' });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('StatisticPage', () => {
  it('loads the last 24 hours by hour in the browser zone: totals, chart, top methods, tables', async () => {
    renderPage();
    expect(screen.getByRole('status', { name: 'Loading statistics…' })).toBeInTheDocument();
    const img = await chart();
    expect(img).toHaveAttribute('data-bucket', 'hour');
    expect(Number(img.getAttribute('data-points'))).toBeGreaterThanOrEqual(24);
    expect(img.querySelector('svg')).not.toBeNull();

    const p = lastCall('hub_reportUserRequestByApikey')!;
    expect(p.to - p.from).toBe(DAY);
    expect(p).toMatchObject({
      bucket: 'hour',
      scope: 'team',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(p.chain).toBeUndefined();
    expect(lastCall('hub_reportUserCompositeInfo')).toEqual(p);
    expect(lastCall('hub_reportUserTop5MethodRuCostByApikey')).toEqual(p);

    const totals = screen.getByRole('region', { name: 'Totals for the period' });
    expect(within(totals).getByText('Total requests')).toBeInTheDocument();
    expect(within(totals).getByText('1,234')).toBeInTheDocument();
    expect(within(totals).getByText('12 ms')).toBeInTheDocument();

    const byKeyRegion = screen.getByRole('region', { name: 'Usage by API key' });
    const byKey = within(byKeyRegion).getByRole('table', { name: 'Usage by API key' });
    const headers = within(byKey)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['API key', 'Requests', 'RUs', 'Errors', 'Share of RUs']);
    const rows = within(byKey).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Prod', '1,000', '10,000', '2', '81%'],
      ['Old key deleted', '234', '2,340', '0', '19%'],
    ]);
    const byNetwork = screen.getByRole('table', { name: 'Usage by network' });
    expect(within(byNetwork).getByRole('cell', { name: 'Ethereum' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Top 5 methods by RU cost' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('table', { name: 'Top 5 methods' })).getByText('eth_call'),
    ).toBeInTheDocument();
  });

  it('sends the chosen range and interval, disabling intervals too fine for the range', async () => {
    const user = userEvent.setup();
    renderPage();
    await chart();

    await choose(user, 'Last 7 days');
    await waitFor(() => {
      const p = lastCall('hub_reportUserRequestByApikey')!;
      expect(p.to - p.from).toBe(7 * DAY);
      expect(p.bucket).toBe('hour');
    });

    await choose(user, 'Last 30 days');
    await waitFor(() => expect(lastCall('hub_reportUserRequestByApikey')!.bucket).toBe('day'));
    expect(await chart()).toHaveAttribute('data-bucket', 'day');
    // 30 days by minute is beyond REPORT_MAX_RANGE_MS; by hour is allowed (up to 31 days)
    expect(await intervalOption(user, 'By minute')).toHaveClass('ant-select-item-option-disabled');
    await user.click(await screen.findByRole('option', { name: 'By hour' }));
    await waitFor(() => expect(lastCall('hub_reportUserRequestByApikey')!.bucket).toBe('hour'));
    await waitFor(async () => expect(await chart()).toHaveAttribute('data-bucket', 'hour'));

    await choose(user, 'Last hour');
    await waitFor(() => expect(lastCall('hub_reportUserRequestByApikey')!.bucket).toBe('minute'));
    await waitFor(async () => expect(await chart()).toHaveAttribute('data-bucket', 'minute'));
    expect(await intervalOption(user, 'By minute')).not.toHaveClass(
      'ant-select-item-option-disabled',
    );
  });

  it('redraws with more points when 24 hours are shown by minute', async () => {
    const user = userEvent.setup();
    renderPage();
    await waitFor(async () => expect(await chart()).toHaveAttribute('data-bucket', 'hour'));
    const hourly = Number((await chart()).getAttribute('data-points'));
    await user.click(await intervalOption(user, 'By minute'));
    await waitFor(async () => expect(await chart()).toHaveAttribute('data-bucket', 'minute'));
    expect(Number((await chart()).getAttribute('data-points'))).toBeGreaterThan(hourly);
  });

  it('sends the chosen metric, stacking, network and key (acting for a team)', async () => {
    actForTeam();
    const user = userEvent.setup();
    renderPage();
    await chart();

    await choose(user, 'RUs');
    await waitFor(() => expect(calls('hub_reportUserRuUsageByApikey')).toHaveLength(1));
    expect(await chart('RUs over time')).toBeInTheDocument();

    await choose(user, 'By network');
    await waitFor(() => expect(calls('hub_reportUserCompositeInfoByNetwork')).toHaveLength(1));
    expect(calls('hub_reportUserTop5MethodRuCostByNetwork')).toHaveLength(1);

    await user.click(screen.getByRole('combobox', { name: 'Network' }));
    await user.click(await screen.findByTitle('Ethereum'));
    await waitFor(() =>
      expect(lastCall('hub_reportUserCompositeInfoByNetwork')!.chain).toBe('ethereum'),
    );

    await choose(user, 'API Key');
    await waitFor(() => expect(calls('hub_reportApikeyRuUsage')).toHaveLength(1));
    expect(lastCall('hub_reportApikeyRuUsage')).toMatchObject({
      keyId: KEYS[0]!.keyId,
      chain: 'ethereum',
    });
    expect(lastCall('hub_reportApikeyCompositeInfo')).toMatchObject({ keyId: KEYS[0]!.keyId });
    expect(lastCall('hub_reportUsageInfoByApikey')).toMatchObject({
      scope: 'apikey',
      keyId: KEYS[0]!.keyId,
    });
    expect(screen.getByRole('combobox', { name: 'API key' })).toBeInTheDocument();
  });

  it('shows the empty state with a link to create a key', async () => {
    usageScale = 0;
    renderPage();
    expect(await screen.findByText('No usage in this period')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create an API key or endpoint' })).toHaveAttribute(
      'href',
      '/rpc/endpoint',
    );
    expect(screen.queryByRole('img', { name: 'Requests over time' })).toBeNull();
  });

  it('shows an error with a retry that loads again', async () => {
    let failing = true;
    overrides.hub_reportUsageInfoByNetwork = ((p: TReportParamsIn) => {
      if (failing)
        throw new RpcCallError('hub_reportUsageInfoByNetwork', {
          code: 10500,
          message: 'boom',
          messageZh: 'boom',
        });
      return handlers.hub_reportUsageInfoByNetwork!(p as never);
    }) as never;
    const user = userEvent.setup();
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The statistics could not be loaded.');
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Usage by network' })).toBeInTheDocument();
  });

  it('remembers the selection and answers in cached-stats and shows them at once on a revisit', async () => {
    const user = userEvent.setup();
    const first = renderPage();
    await chart();
    await choose(user, 'Last 7 days');
    await waitFor(() => {
      const stored = JSON.parse(localStorage.getItem(STORAGE_KEY.cachedStats) ?? '{}');
      expect(stored.version).toBe(CACHED_STATS_VERSION);
      expect(stored.filters.range).toBe('7d');
      expect(stored.answers.byKey).toHaveLength(2);
    });
    first.unmount();

    // The revisit's calls never answer: what shows comes from the cache.
    rpc.mockImplementation(async (method) => {
      if (method === 'hub_getPureApiKeys' || method === 'hub_getSupportChains')
        return handlers[method]!({} as never) as never;
      return new Promise(() => {}) as never;
    });
    renderPage();
    expect(await screen.findByRole('table', { name: 'Usage by API key' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Last 7 days' })).toBeChecked();
    expect(await chart()).toHaveAttribute('data-bucket', 'hour');
    expect(
      screen.getByText('Showing the figures of your last visit while they refresh.'),
    ).toBeInTheDocument();
    expect(
      lastCall('hub_reportUserRequestByApikey')!.to -
        lastCall('hub_reportUserRequestByApikey')!.from,
    ).toBe(7 * DAY);
  });

  it.each([
    ['old', JSON.stringify({ version: 0, filters: { range: '7d' }, answers: {} })],
    ['corrupt', '{not json'],
  ])('ignores a cached-stats value that is %s', async (_, raw) => {
    localStorage.setItem(STORAGE_KEY.cachedStats, raw);
    renderPage();
    await chart();
    expect(screen.getByRole('radio', { name: 'Last 24 hours' })).toBeChecked();
    expect(lastCall('hub_reportUserRequestByApikey')!.bucket).toBe('hour');
  });

  it('downloads a CSV of what is shown', async () => {
    const created: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(Object.create(URL), {
        createObjectURL: (blob: Blob) => {
          created.push(blob);
          return 'blob:csv';
        },
        revokeObjectURL: () => {},
      }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderPage();
    await chart();
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(click).toHaveBeenCalledTimes(1);
    const text = await created[0]!.text();
    expect(text).toContain('Requests over time\r\n');
    expect(text).toContain('Prod,1000,10000,2,81.00');
    expect(text).toContain('Old key (deleted),234,2340,0,19.00');
    click.mockRestore();
  });

  it('refuses a custom range the server would refuse (10604), without calling', async () => {
    const now = Date.now();
    localStorage.setItem(
      STORAGE_KEY.cachedStats,
      JSON.stringify({
        version: CACHED_STATS_VERSION,
        savedAt: 0,
        // by minute, 20 days ago: minute detail is kept 14 days
        filters: {
          range: 'custom',
          customFrom: now - 20 * DAY,
          customTo: now - 20 * DAY + HOUR,
          bucket: 'minute',
          scope: 'team',
          metric: 'requests',
          stackBy: 'apikey',
        },
        answers: {},
      }),
    );
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Per-minute detail is no longer kept for this period. Choose hourly or daily.',
    );
    expect(screen.getByRole('radio', { name: 'Custom' })).toBeChecked();
    expect(rpc.mock.calls.filter(([m]) => m.startsWith('hub_report'))).toEqual([]);
    expect(await intervalOption(user, 'By minute')).toHaveClass('ant-select-item-option-disabled');

    await user.click(await screen.findByRole('option', { name: 'By hour' }));
    const img = await chart();
    expect(img).toHaveAttribute('data-bucket', 'hour');
    expect(lastCall('hub_reportUserRequestByApikey')).toMatchObject({
      from: now - 20 * DAY,
      to: now - 20 * DAY + HOUR,
      bucket: 'hour',
    });
  });

  it('speaks Chinese: range, interval and scope labels, tables', async () => {
    actForTeam();
    await act(() => i18n.changeLanguage('zh'));
    renderPage();
    expect(await chart('请求数趋势')).toHaveAttribute('data-bucket', 'hour');
    for (const name of ['最近 1 小时', '最近 24 小时', '最近 7 天', '最近 30 天', '自定义', '团队'])
      expect(screen.getByRole('radio', { name })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: '粒度' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: '按 API Key 的用量' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: '按网络的用量' })).toBeInTheDocument();
  });

  it('waits for a key when the remembered one is gone', async () => {
    actForTeam();
    localStorage.setItem(
      STORAGE_KEY.cachedStats,
      JSON.stringify({
        version: CACHED_STATS_VERSION,
        savedAt: 0,
        filters: {
          range: '24h',
          bucket: 'hour',
          scope: 'apikey',
          keyId: '00000000-0000-4000-8000-000000000099',
          metric: 'requests',
          stackBy: 'apikey',
        },
        answers: {},
      }),
    );
    renderPage();
    expect(await screen.findByText('Choose an API key to see its usage.')).toBeInTheDocument();
    expect(rpc.mock.calls.filter(([m]) => m.startsWith('hub_report'))).toEqual([]);
  });

  it('Custom opens the range picker and waits for dates before calling', async () => {
    const user = userEvent.setup();
    renderPage();
    await chart();
    const before = rpc.mock.calls.length;
    await choose(user, 'Custom');
    const group = await screen.findByRole('group', { name: 'Custom time range' });
    expect(within(group).getByPlaceholderText('Start')).toBeInTheDocument();
    expect(within(group).getByPlaceholderText('End')).toBeInTheDocument();
    expect(
      await screen.findByText('Choose the start and end of the time range.'),
    ).toBeInTheDocument();
    expect(rpc.mock.calls.slice(before).filter(([m]) => m.startsWith('hub_report'))).toEqual([]);
  });
  it('labels the three rows of filters', async () => {
    renderPage();
    await chart();
    const bar = screen.getByRole('group', { name: 'Filters' });
    const period = within(bar).getByRole('group', { name: 'Period' });
    expect(within(period).getByRole('radiogroup', { name: 'Time range' })).toBeInTheDocument();
    expect(within(period).getByRole('combobox', { name: 'Interval' })).toBeInTheDocument();
    const data = within(bar).getByRole('group', { name: 'Usage of' });
    expect(within(data).getByRole('combobox', { name: 'Network' })).toBeInTheDocument();
    const display = within(bar).getByRole('group', { name: 'Display' });
    expect(within(display).getByRole('radiogroup', { name: 'Metric' })).toBeInTheDocument();
    expect(within(display).getByRole('radiogroup', { name: 'Stack by' })).toBeInTheDocument();
    expect(screen.getByText('Period')).toBeVisible();
  });

  it('acting as a personal account: no Team scope, one key list with "All API keys"', async () => {
    const user = userEvent.setup();
    renderPage();
    await chart();
    expect(screen.queryByRole('radio', { name: 'Team' })).toBeNull();
    expect(screen.queryByRole('radiogroup', { name: 'Scope' })).toBeNull();
    const keySelect = screen.getByRole('combobox', { name: 'API key' });
    expect(keySelect.closest('.ant-select')).toHaveTextContent('All API keys');
    await user.click(keySelect);
    await user.click(await screen.findByRole('option', { name: 'Staging' }));
    await waitFor(() =>
      expect(lastCall('hub_reportUserRequestByApikey')).toMatchObject({
        scope: 'apikey',
        keyId: KEYS[1]!.keyId,
      }),
    );
    await user.click(screen.getByRole('combobox', { name: 'API key' }));
    await user.click(await screen.findByRole('option', { name: 'All API keys' }));
    // back to the whole account (its answers are still cached, so no new call is needed)
    expect(
      screen.getByRole('combobox', { name: 'API key' }).closest('.ant-select'),
    ).toHaveTextContent('All API keys');
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem(STORAGE_KEY.cachedStats) ?? '{}').filters?.scope).toBe(
        'team',
      ),
    );
  });

  it('acting for a team: the Team and API Key scopes', async () => {
    actForTeam();
    renderPage();
    await chart();
    expect(screen.getByRole('radio', { name: 'Team' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'API Key' })).toBeInTheDocument();
  });

  it('switches between the chart and its data table with a Chart | Data table control', async () => {
    const user = userEvent.setup();
    renderPage();
    const img = await chart();
    const view = screen.getByRole('radio', { name: 'Data table' });
    expect(screen.getByRole('radio', { name: 'Chart' })).toBeChecked();
    await user.click(view.closest('label')!);
    expect(
      await screen.findByRole('table', { name: /Requests over time, per interval/ }),
    ).toBeVisible();
    expect(img).not.toBeVisible();
    await user.click(screen.getByRole('radio', { name: 'Chart' }).closest('label')!);
    expect(img).toBeVisible();
  });
  it('shows requests refused by the gateway and node errors, by reason and code', async () => {
    renderPage();
    await chart();
    const region = await screen.findByRole('region', { name: 'Refused and failed requests' });
    expect(lastCall('hub_reportUserRefusals')).toEqual(lastCall('hub_reportUserRequestByApikey'));
    const table = await within(region).findByRole('table', {
      name: 'Refused and failed requests by reason',
    });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) =>
          within(r)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ),
    ).toEqual([
      ['Over the rate limit', '429', '-32005', '6', '60%'],
      ['Not allowed (allowlist or paused key)', '403', '-32004', '2', '20%'],
      ['Node errors', 'varies', 'varies', '2', '20%'],
    ]);
    expect(
      within(region).getByRole('img', { name: 'Refused and failed requests over time' }),
    ).toHaveAttribute('data-total', '10');
  });

  it('still shows refused requests when nothing was served (all refused)', async () => {
    usageScale = 0;
    renderPage();
    expect(await screen.findByText('No usage in this period')).toBeInTheDocument();
    const region = await screen.findByRole('region', { name: 'Refused and failed requests' });
    expect(
      await within(region).findByRole('cell', { name: 'Over the rate limit' }),
    ).toBeInTheDocument();
  });
});
