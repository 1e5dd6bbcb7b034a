/**
 * The endpoint page's "Request log" tab against the shared fake API (every call and answer checked against the
 * contract): the key picker, the SPEC §9 paged table with times to the second, outcome tags and codes, the method
 * search, outcome and period filters, refresh, what was not kept, the empty states, the drawer's link, Chinese.
 */
import type { TApiKey, TMethodName, TParamsIn, TRequestLogEntry, TResult } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import { MemoryRouter, useLocation } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import type * as RpcClientModule from '../../lib/rpc-client';
import { callRpc } from '../../lib/rpc-client';
import { fakeRpc, type TFakeHandler } from '../../test/fake-api';
import { EndpointPage } from './components/endpoint-page';
import { formatLogTime } from './components/request-log-tab';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);

const KEY_A = '00000000-0000-4000-8000-00000000000a';
const KEY_B = '00000000-0000-4000-8000-00000000000b';
const T0 = new Date(2026, 10, 27, 14, 3, 9).getTime();

function entry(i: number, patch: Partial<TRequestLogEntry> = {}): TRequestLogEntry {
  return {
    at: T0 - i * 1000,
    chain: 'localnet',
    method: 'eth_blockNumber',
    transport: 'http',
    outcome: 'ok',
    errorCode: null,
    latencyMs: 12,
    ru: 10,
    ...patch,
  };
}

/** The server side of the fake: each key's log, newest first, filtered and paged like the service. */
let logs: Record<string, TRequestLogEntry[]> = {};
let dropped = 0;
let pureKeys = [
  { keyId: KEY_A, name: 'Production' },
  { keyId: KEY_B, name: 'Staging' },
];
let overrides: Partial<Record<TMethodName, TFakeHandler>> = {};

const apiKey = (keyId: string, name: string): TApiKey => ({
  keyId,
  name,
  key: `${name.toLowerCase()}abcdefghijklmnopqrstuvwxyz012`,
  createdAt: T0,
  paused: false,
  archiveMode: false,
  mev: '',
  bundler: 'default',
  allowlists: { origins: [], ips: [], contracts: [], methods: [] },
  today: { requests: 0, ru: 0 },
});

const handlers: Partial<Record<TMethodName, TFakeHandler>> = {
  hub_getPureApiKeys: () => ({ list: pureKeys }),
  hub_getApiKeyRequestLogs: (
    p: TParamsIn<'hub_getApiKeyRequestLogs'>,
  ): TResult<'hub_getApiKeyRequestLogs'> => {
    const page = p.page ?? 1;
    const perPage = p.perPage ?? 5;
    const groups: Record<string, string[]> = {
      ok: ['ok'],
      errors: ['rpc_error', 'upstream_failed', 'cancelled'],
      refused: ['refused'],
    };
    const found = (logs[p.keyId] ?? []).filter(
      (e) =>
        (!p.method || e.method.toLowerCase().includes(p.method.toLowerCase())) &&
        (!p.outcome || p.outcome === 'all' || groups[p.outcome]!.includes(e.outcome)) &&
        (p.from === undefined || e.at >= p.from),
    );
    return {
      list: found.slice((page - 1) * perPage, page * perPage),
      total: found.length,
      page,
      perPage,
      dropped,
      retentionHours: 72,
      maxEntries: 1000,
    };
  },
  hub_getApiKeys: () => ({
    list: pureKeys.map((k) => apiKey(k.keyId, k.name)),
    total: pureKeys.length,
    page: 1,
    perPage: 5,
  }),
  hub_getApiKey: (p: { keyId: string }) =>
    apiKey(p.keyId, pureKeys.find((k) => k.keyId === p.keyId)!.name),
  hub_getSupportChains: () => ({ list: [] }),
  hub_getApiKeyNeedUpgrade: () => ({ needUpgrade: false, tier: 'free', reasons: [] }),
};

function calls() {
  return rpc.mock.calls
    .filter(([name]) => name === 'hub_getApiKeyRequestLogs')
    .map(([, p]) => p as TParamsIn<'hub_getApiKeyRequestLogs'>);
}

function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{location.search}</p>;
}

function renderPage(path = '/rpc/endpoint?tab=logs') {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <MemoryRouter initialEntries={[path]}>
          <EndpointPage />
          <LocationProbe />
        </MemoryRouter>
      </ConfigProvider>
    </QueryClientProvider>,
  );
}

function logTable(name = 'Request log') {
  return screen.getByRole('region', { name });
}

async function pick(label: string, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  const item = (await screen.findAllByTitle(option)).find((el) =>
    el.classList.contains('ant-select-item-option'),
  )!;
  await userEvent.click(item);
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  logs = {
    [KEY_A]: [
      entry(0, { method: 'eth_call', outcome: 'rpc_error', errorCode: 3, latencyMs: 1234, ru: 20 }),
      entry(1, { method: 'eth_getLogs', outcome: 'refused', errorCode: -32005, ru: 0 }),
      entry(2, { method: '', outcome: 'refused', errorCode: -32700, ru: 0, transport: 'ws' }),
      ...Array.from({ length: 9 }, (_, i) => entry(3 + i)),
    ],
    [KEY_B]: [entry(0, { method: 'eth_chainId', chain: 'ethereum' })],
  };
  dropped = 0;
  pureKeys = [
    { keyId: KEY_A, name: 'Production' },
    { keyId: KEY_B, name: 'Staging' },
  ];
  overrides = {};
  rpc.mockReset();
  rpc.mockImplementation(fakeRpc(() => ({ ...handlers, ...overrides })));
  await act(() => i18n.changeLanguage('en'));
});

describe('Request log tab', () => {
  it('formats times to the second (YYYY-MM-DD HH:mm:ss, local)', () => {
    expect(formatLogTime(new Date(2026, 0, 2, 3, 4, 5).getTime())).toBe('2026-01-02 03:04:05');
  });

  it('shows the first key’s newest calls, 5 a page, with outcome, code, latency and RU', async () => {
    renderPage();
    expect(screen.getByRole('tab', { name: 'Request log', selected: true })).toBeInTheDocument();
    const first = (await screen.findByText('eth_call')).closest('tr')!;
    expect(calls()[0]).toEqual({ keyId: KEY_A, page: 1, perPage: 5, outcome: 'all' });
    for (const header of [
      'Time',
      'Method',
      'Chain',
      'Transport',
      'Outcome',
      'Error code',
      'Latency',
      'RU',
    ])
      expect(within(logTable()).getByRole('columnheader', { name: header })).toBeInTheDocument();
    const cells = within(first);
    expect(cells.getByText('2026-11-27 14:03:09')).toBeInTheDocument();
    expect(cells.getByText('Node error')).toBeInTheDocument();
    expect(cells.getByText('3')).toBeInTheDocument();
    expect(cells.getByText('1,234 ms')).toBeInTheDocument();
    expect(cells.getByText('20')).toBeInTheDocument();
    // A call with no valid method, refused over WebSocket.
    const noMethod = screen.getByText('(no method)').closest('tr')!;
    expect(within(noMethod).getByText('WebSocket')).toBeInTheDocument();
    expect(within(noMethod).getByText('Refused')).toBeInTheDocument();
    expect(within(noMethod).getByText('-32700')).toBeInTheDocument();
    // An ok call has no code.
    const ok = within(logTable()).getAllByText('OK')[0]!.closest('tr')!;
    expect(within(ok).getByText('-')).toBeInTheDocument();
    expect(within(logTable()).getAllByRole('row')).toHaveLength(6);
    expect(screen.getByText('12 requests')).toBeInTheDocument();
    expect(screen.getByText(/kept for 72 hours, at most the newest 1,000 per key/)).toBeVisible();
    // Nothing was dropped: no warning.
    expect(screen.queryByText(/not kept/)).not.toBeInTheDocument();
  });

  it('searches by method, filters by outcome and period, pages and refreshes with the server', async () => {
    renderPage();
    await screen.findByText('eth_call');
    await userEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(calls().at(-1)).toMatchObject({ page: 3 }));

    await userEvent.type(
      screen.getByRole('searchbox', { name: 'Search by method' }),
      'LOGS{Enter}',
    );
    await waitFor(() =>
      expect(calls().at(-1)).toEqual({
        keyId: KEY_A,
        page: 1,
        perPage: 5,
        outcome: 'all',
        method: 'LOGS',
      }),
    );
    expect(await screen.findByText('eth_getLogs')).toBeInTheDocument();
    expect(screen.queryByText('eth_call')).not.toBeInTheDocument();

    await pick('Outcome', 'Errors');
    await waitFor(() => expect(calls().at(-1)).toMatchObject({ outcome: 'errors', page: 1 }));
    expect(await screen.findByText('No logged requests match these filters.')).toBeInTheDocument();

    await pick('Period', 'Last hour');
    await waitFor(() => expect(calls().at(-1)!.from).toBeGreaterThan(Date.now() - 3_700_000));

    const before = calls().length;
    await userEvent.click(screen.getByRole('button', { name: /Refresh/ }));
    await waitFor(() => expect(calls().length).toBeGreaterThan(before));
  });

  it('switches keys with the picker and opens on the key named in the address', async () => {
    renderPage('/rpc/endpoint?tab=logs&key=' + KEY_B);
    expect(await screen.findByText('eth_chainId')).toBeInTheDocument();
    expect(calls()[0]).toMatchObject({ keyId: KEY_B });
    await pick('API key', 'Production');
    expect(await screen.findByText('eth_call')).toBeInTheDocument();
    expect(calls().at(-1)).toMatchObject({ keyId: KEY_A, page: 1 });
  });

  it('says how many calls were not kept', async () => {
    dropped = 37;
    renderPage();
    expect(
      await screen.findByText(/37 more requests in this period were not kept/),
    ).toBeInTheDocument();
  });

  it('explains where entries come from when a key has none, and asks for a key when there is none', async () => {
    logs = {};
    const view = renderPage();
    expect(
      await screen.findByText(/Calls to its HTTPS or WebSocket endpoint appear here a few seconds/),
    ).toBeInTheDocument();
    view.unmount();
    rpc.mockClear();
    pureKeys = [];
    renderPage();
    expect(await screen.findByText(/You have no API key yet/)).toBeInTheDocument();
    expect(calls()).toEqual([]);
  });

  it('offers a retry when the log fails to load', async () => {
    overrides = {
      hub_getApiKeyRequestLogs: () => {
        throw new Error('down');
      },
    };
    renderPage();
    expect(await screen.findByText('This list could not be loaded.')).toBeInTheDocument();
    overrides = {};
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('eth_call')).toBeInTheDocument();
  });

  it('opens from the key drawer’s “View request log” on that key', async () => {
    renderPage('/rpc/endpoint');
    const row = (await screen.findByRole('button', { name: 'Staging' })).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Details' }));
    const drawer = await screen.findByRole('dialog');
    await userEvent.click(within(drawer).getByRole('button', { name: 'View request log' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(`?tab=logs&key=${KEY_B}`),
    );
    expect(await screen.findByText('eth_chainId')).toBeInTheDocument();
    expect(calls().at(-1)).toMatchObject({ keyId: KEY_B });
  });

  it('speaks Chinese', async () => {
    await act(() => i18n.changeLanguage('zh'));
    renderPage();
    expect(await screen.findByRole('tab', { name: '请求日志' })).toBeInTheDocument();
    expect(await screen.findByText('节点错误')).toBeInTheDocument();
    expect(
      within(logTable('请求日志')).getByRole('columnheader', { name: '错误码' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /刷新/ })).toBeInTheDocument();
  });
});
