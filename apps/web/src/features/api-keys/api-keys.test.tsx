/** The /rpc/endpoint page against a fake request client: only callRpc (the network boundary) is replaced. */
import type { TApiKey, TChain, TMethodName, TParamsIn, TResult } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import { resetLimitInfo } from '../../lib/limit-info';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, callRpc } from '../../lib/rpc-client';
import { useSession } from '../../lib/session';
import { makeUser } from '../../test/fixtures';
import { EndpointPage } from './components/endpoint-page';

const TEAM = '00000000-0000-4000-8000-000000000002';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);

function makeKey(i: number, patch: Partial<TApiKey> = {}): TApiKey {
  return {
    keyId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: `Key ${i}`,
    key: `k${String(i).padStart(3, '0')}abcdefghijklmnopqrstuvwx`,
    createdAt: new Date(2026, 0, i, 9, 5).getTime(),
    paused: false,
    archiveMode: false,
    mev: '',
    bundler: 'default',
    allowlists: { origins: [], ips: [], contracts: [], methods: [] },
    today: { requests: i * 1000, ru: i * 10_000 },
    ...patch,
  };
}

const chains: TChain[] = [
  {
    id: 'localnet',
    name: 'Localnet',
    network: 'testnet',
    chainId: 31337,
    icon: '',
    available: true,
    features: ['archive', 'mev', 'bundler'],
    ruMultiplier: 1,
    httpUrlTemplate: 'http://localhost:3001/v1/localnet/{key}',
    wsUrlTemplate: 'ws://localhost:3001/v1/localnet/{key}',
  },
  {
    id: 'ethereum',
    name: 'Ethereum',
    network: 'mainnet',
    chainId: 1,
    icon: '',
    available: false,
    features: ['archive', 'mev'],
    ruMultiplier: 1,
    httpUrlTemplate: 'https://rpc.example.com/v1/ethereum/{key}',
    wsUrlTemplate: 'wss://rpc.example.com/v1/ethereum/{key}',
  },
];

/** The server side of the fake: an in-memory key list, newest first, paged like hub_getApiKeys. */
let keys: TApiKey[] = [];
type THandlers = Partial<Record<TMethodName, (params: never) => unknown>>;
let overrides: THandlers = {};

const handlers: THandlers = {
  hub_getApiKeys: (p: TParamsIn<'hub_getApiKeys'>) => {
    const page = p.page ?? 1;
    const perPage = p.perPage ?? 5;
    const found = keys.filter((k) => !p.search || k.name.includes(p.search));
    return {
      list: found.slice((page - 1) * perPage, page * perPage),
      total: found.length,
      page,
      perPage,
    };
  },
  hub_getApiKey: (p: { keyId: string }) => keys.find((k) => k.keyId === p.keyId),
  hub_generateApiKey: (p: { name: string }) => {
    const key = makeKey(99, { name: p.name, today: { requests: 0, ru: 0 } });
    keys = [key, ...keys];
    return key;
  },
  hub_setApiKeyName: (p: { keyId: string; name: string }) => patchKey(p.keyId, { name: p.name }),
  hub_updateApiKey: (p: TParamsIn<'hub_updateApiKey'>) =>
    patchKey(p.keyId, {
      ...(p.paused === undefined ? {} : { paused: p.paused }),
      ...(p.allowlists
        ? { allowlists: { ...keys.find((k) => k.keyId === p.keyId)!.allowlists, ...p.allowlists } }
        : {}),
    }),
  hub_deleteApiKey: (p: { keyId: string }) => {
    keys = keys.filter((k) => k.keyId !== p.keyId);
    return { success: true };
  },
  hub_setApiKeyAdvancedFeatures: (p: TParamsIn<'hub_setApiKeyAdvancedFeatures'>) =>
    patchKey(p.keyId, { archiveMode: p.enabled }),
  hub_setApiKeyMev: (p: TParamsIn<'hub_setApiKeyMev'>) => patchKey(p.keyId, { mev: p.mev }),
  hub_setApiKeyBundler: (p: TParamsIn<'hub_setApiKeyBundler'>) =>
    patchKey(p.keyId, { bundler: p.bundler }),
  hub_getSupportChains: () => ({ list: chains }),
  hub_getApiKeyNeedUpgrade: () => ({ needUpgrade: false, tier: 'free', reasons: [] }),
  hub_getUserLimitInfo: (): TResult<'hub_getUserLimitInfo'> => ({
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
  }),
  hub_getRuTable: (): TResult<'hub_getRuTable'> => ({
    // an internal version string naming another provider: never shown
    version: '2026-11-22.blockpi-2',
    methods: [
      { method: 'eth_chainId', ru: 5 },
      { method: 'net_version', ru: 5 },
      { method: 'eth_blockNumber', ru: 10 },
      { method: 'eth_gasPrice', ru: 10 },
      { method: 'eth_getBalance', ru: 15 },
      { method: 'eth_call', ru: 20 },
      { method: 'eth_getBlockByNumber', ru: 20 },
      { method: 'eth_getTransactionReceipt', ru: 15 },
      { method: 'eth_sendRawTransaction', ru: 200 },
      { method: 'eth_getLogs', ru: 50 },
      { method: 'eth_newFilter', ru: 20 },
      { method: 'eth_subscribe', ru: 10 },
      { method: 'eth_sendUserOperation', ru: 200 },
      { method: 'trace_block', ru: 150 },
      { method: 'debug_trace*', ru: 150 },
    ],
    rules: {
      unlistedRuPer250Bytes: 5,
      archiveSurchargePercent: 30,
      getLogsSurchargePercentPer200KbOver200Kb: 100,
      responseSurchargePercentPerMbOver1Mb: 100,
    },
  }),
};

function patchKey(keyId: string, patch: Partial<TApiKey>): TApiKey {
  keys = keys.map((k) => (k.keyId === keyId ? { ...k, ...patch } : k));
  return keys.find((k) => k.keyId === keyId)!;
}

function calls<N extends TMethodName>(method: N) {
  return rpc.mock.calls.filter(([name]) => name === method).map(([, p]) => p as TParamsIn<N>);
}

function renderPage(path = '/rpc/endpoint') {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      {/* as the app's providers do: no space squeezed into two-character Chinese buttons */}
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <MemoryRouter initialEntries={[path]}>
          <EndpointPage />
        </MemoryRouter>
      </ConfigProvider>
    </QueryClientProvider>,
  );
}

/** The table row that shows `name`. */
async function row(name: string) {
  const cell = await screen.findByRole('button', { name });
  return cell.closest('tr')!;
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  keys = Array.from({ length: 12 }, (_, i) => makeKey(12 - i));
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

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('EndpointPage keys table', () => {
  it('shows a skeleton, then the first page of 5 with usage, status and dates', async () => {
    renderPage();
    expect(screen.getByRole('status', { name: 'Loading your API keys…' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Key 12' })).toBeInTheDocument();
    expect(calls('hub_getApiKeys')).toEqual([{ page: 1, perPage: 5 }]);
    for (const header of [
      'Name',
      'Key',
      'Status',
      'Requests today',
      'RUs today',
      'Created',
      'Actions',
    ]) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const first = within(await row('Key 12'));
    expect(first.getByText('12,000')).toBeInTheDocument();
    expect(first.getByText('120,000')).toBeInTheDocument();
    expect(first.getByText('Active')).toBeInTheDocument();
    expect(first.getByText('2026-01-12 09:05')).toBeInTheDocument();
    // the key is masked until revealed
    expect(first.queryByText(keys[0]!.key)).not.toBeInTheDocument();
    await userEvent.click(first.getByRole('button', { name: 'Show key' }));
    expect(first.getByText(keys[0]!.key)).toBeInTheDocument();
    expect(screen.getByText('12 keys')).toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(6);
  });

  it('pages and searches with the server', async () => {
    renderPage();
    await screen.findByRole('button', { name: 'Key 12' });
    await userEvent.click(screen.getByTitle('3'));
    expect(await screen.findByRole('button', { name: 'Key 2' })).toBeInTheDocument();
    expect(calls('hub_getApiKeys').at(-1)).toEqual({ page: 3, perPage: 5 });

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search keys' }), 'Key 1{Enter}');
    await waitFor(() =>
      expect(calls('hub_getApiKeys').at(-1)).toEqual({ page: 1, perPage: 5, search: 'Key 1' }),
    );
  });

  it('changes the page size with the server', async () => {
    renderPage();
    await screen.findByRole('button', { name: 'Key 12' });
    await userEvent.click(screen.getByRole('combobox', { name: /page size|Page Size/i }));
    await userEvent.click(await screen.findByTitle('10 / page'));
    await waitFor(() => expect(calls('hub_getApiKeys').at(-1)).toEqual({ page: 1, perPage: 10 }));
    expect(await screen.findByRole('button', { name: 'Key 3' })).toBeInTheDocument();
  });

  it('shows the empty state with a call to action when there are no keys', async () => {
    keys = [];
    renderPage();
    expect(await screen.findByText(/You have no API keys yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create your first key' })).toBeInTheDocument();
  });

  it('creates a key with a validated name and shows it at once', async () => {
    renderPage();
    await screen.findByRole('button', { name: 'Key 12' });
    await userEvent.click(screen.getByRole('button', { name: 'Create API key' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Please enter a name.')).toBeInTheDocument();
    expect(calls('hub_generateApiKey')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('Name'), '  My dApp  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(calls('hub_generateApiKey')).toEqual([{ name: 'My dApp' }]));
    expect(await screen.findByRole('button', { name: 'My dApp' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('renames a key', async () => {
    renderPage();
    await userEvent.click(within(await row('Key 12')).getByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText('Name');
    expect(field).toHaveValue('Key 12');
    await userEvent.clear(field);
    await userEvent.type(field, 'Production');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls('hub_setApiKeyName')).toEqual([{ keyId: keys[0]!.keyId, name: 'Production' }]),
    );
    expect(await screen.findByRole('button', { name: 'Production' })).toBeInTheDocument();
  });

  it('pauses and resumes a key', async () => {
    renderPage();
    await userEvent.click(within(await row('Key 12')).getByRole('button', { name: 'Pause' }));
    await waitFor(() =>
      expect(calls('hub_updateApiKey')).toEqual([{ keyId: keys[0]!.keyId, paused: true }]),
    );
    expect(await within(await row('Key 12')).findByText('Paused')).toBeInTheDocument();
    await userEvent.click(within(await row('Key 12')).getByRole('button', { name: 'Resume' }));
    await waitFor(() =>
      expect(calls('hub_updateApiKey').at(-1)).toEqual({ keyId: keys[0]!.keyId, paused: false }),
    );
  });

  it('asks before deleting, says the endpoint stops at once, then deletes and refreshes', async () => {
    renderPage();
    const keyId = keys[0]!.keyId;
    await userEvent.click(within(await row('Key 12')).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText(/stop working at once/)).toBeInTheDocument();
    expect(calls('hub_deleteApiKey')).toHaveLength(0);
    const listCalls = calls('hub_getApiKeys').length;
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls('hub_deleteApiKey')).toEqual([{ keyId }]));
    await waitFor(() => expect(calls('hub_getApiKeys').length).toBeGreaterThan(listCalls));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Key 12' })).not.toBeInTheDocument(),
    );
  });

  it('asks for the two-factor code when deletion needs one (10219), then deletes with it', async () => {
    overrides.hub_deleteApiKey = (p: TParamsIn<'hub_deleteApiKey'>) => {
      if (!p.twoFactorCode) {
        throw new RpcCallError('hub_deleteApiKey', { code: 10219, message: 'x', messageZh: 'x' });
      }
      if (p.twoFactorCode !== '123456') {
        throw new RpcCallError('hub_deleteApiKey', { code: 10220, message: 'x', messageZh: 'x' });
      }
      return handlers.hub_deleteApiKey!(p as never);
    };
    renderPage();
    const keyId = keys[0]!.keyId;
    await userEvent.click(within(await row('Key 12')).getByRole('button', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('tooltip')).getByRole('button', { name: 'Delete' }),
    );
    // (antd gives every id "test-id" under test, so the open Popconfirm shadows the dialog's name)
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Confirm with your two-factor code');
    const field = within(dialog).getByLabelText('Two-factor code');
    await waitFor(() => expect(field).toHaveFocus());
    await userEvent.paste('654321');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(
      await within(dialog).findByText('The code is wrong. Please try again.'),
    ).toBeInTheDocument();
    await userEvent.paste('123456');
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Key 12' })).not.toBeInTheDocument(),
    );
    expect(calls('hub_deleteApiKey')).toEqual([
      { keyId },
      { keyId, twoFactorCode: '654321' },
      { keyId, twoFactorCode: '123456' },
    ]);
    // The prompt says what went wrong; the calls asked the client for no popup on these codes.
    const options = rpc.mock.calls
      .filter(([name]) => name === 'hub_deleteApiKey')
      .map(([, , o]) => o);
    for (const option of options) expect(option?.silentCodes).toEqual([10219, 10220]);
  });

  it('stops quietly when the user closes the two-factor prompt', async () => {
    overrides.hub_deleteApiKey = () => {
      throw new RpcCallError('hub_deleteApiKey', { code: 10219, message: 'x', messageZh: 'x' });
    };
    renderPage();
    await userEvent.click(within(await row('Key 12')).getByRole('button', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('tooltip')).getByRole('button', { name: 'Delete' }),
    );
    // (antd gives every id "test-id" under test, so the open Popconfirm shadows the dialog's name)
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Confirm with your two-factor code');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('hub_deleteApiKey')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Key 12' })).toBeInTheDocument();
  });

  it('keeps the dialog open when the server refuses (the client has shown why)', async () => {
    overrides.hub_generateApiKey = () => {
      throw new RpcCallError('hub_generateApiKey', { code: 50409, message: 'x', messageZh: 'x' });
    };
    renderPage();
    await screen.findByRole('button', { name: 'Key 12' });
    await userEvent.click(screen.getByRole('button', { name: 'Create API key' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Too many');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(calls('hub_generateApiKey')).toHaveLength(1));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

describe('EndpointPage key detail', () => {
  async function openDetail() {
    renderPage();
    await userEvent.click(within(await row('Key 12')).getByRole('button', { name: 'Details' }));
    return screen.findByRole('dialog');
  }

  it('builds the HTTPS and WSS URLs from the chain templates and copies them', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const drawer = await openDetail();
    const key = keys[0]!.key;
    expect(await within(drawer).findByLabelText('HTTPS URL')).toHaveValue(
      `http://localhost:3001/v1/localnet/${key}`,
    );
    expect(within(drawer).getByLabelText('WSS URL')).toHaveValue(
      `ws://localhost:3001/v1/localnet/${key}`,
    );
    await userEvent.click(within(drawer).getByRole('button', { name: 'Copy HTTPS URL' }));
    expect(writeText).toHaveBeenCalledWith(`http://localhost:3001/v1/localnet/${key}`);
    // The feedback is a tooltip on the button (role status), not a page-wide toast over the drawer's title.
    const copied = await screen.findByRole('status', { name: '' });
    expect(copied).toHaveTextContent('Copied to the clipboard.');
    expect(copied.closest('.ant-tooltip')).not.toBeNull();
    expect(document.querySelector('.ant-message')?.textContent ?? '').not.toContain('Copied');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Copy WSS URL' }));
    expect(writeText).toHaveBeenLastCalledWith(`ws://localhost:3001/v1/localnet/${key}`);
    const curl = within(drawer).getByLabelText('Example request (curl)');
    expect(curl).toHaveTextContent(`curl -X POST 'http://localhost:3001/v1/localnet/${key}'`);
    // wrapped inside the drawer rather than cut at its edge
    expect(curl).toHaveStyle({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' });
    expect(within(drawer).getByRole('button', { name: 'Copy curl example' })).toBeInTheDocument();
  });

  it('shows viem, ethers and web3.py examples with the key’s own endpoint, HTTPS and WebSocket', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const drawer = await openDetail();
    const key = keys[0]!.key;
    const examples = await within(drawer).findByRole('group', { name: 'Code examples' });
    await userEvent.click(within(examples).getByRole('tab', { name: 'viem' }));
    const viem = within(examples).getByRole('group', { name: 'Example request (viem)' });
    expect(viem).toHaveTextContent(`transport: http('http://localhost:3001/v1/localnet/${key}')`);
    // localnet is Hardhat's chain id: viem's built-in chain
    expect(viem).toHaveTextContent("import { hardhat } from 'viem/chains';");
    expect(
      within(examples).getByRole('group', { name: 'WebSocket example (viem)' }),
    ).toHaveTextContent(`webSocket('ws://localhost:3001/v1/localnet/${key}')`);
    await userEvent.click(within(examples).getByRole('button', { name: 'Copy viem example' }));
    expect(writeText).toHaveBeenCalledWith(
      expect.stringContaining(`http('http://localhost:3001/v1/localnet/${key}')`),
    );
    await userEvent.click(within(examples).getByRole('tab', { name: 'ethers v6' }));
    expect(
      within(examples).getByRole('group', { name: 'Example request (ethers v6)' }),
    ).toHaveTextContent(
      `new JsonRpcProvider('http://localhost:3001/v1/localnet/${key}', 31337, { staticNetwork: true })`,
    );
    await userEvent.click(within(examples).getByRole('tab', { name: 'web3.py' }));
    expect(
      within(examples).getByRole('group', { name: 'Example request (web3.py)' }),
    ).toHaveTextContent(`Web3.HTTPProvider('http://localhost:3001/v1/localnet/${key}')`);
  });

  it('says when the browser refuses the clipboard, beside the button', async () => {
    const writeText = vi.fn(() => Promise.reject(new Error('denied')));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const drawer = await openDetail();
    await userEvent.click(await within(drawer).findByRole('button', { name: 'Copy HTTPS URL' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Could not copy: your browser refused access to the clipboard.',
    );
  });

  it('opens from the keyboard', async () => {
    renderPage();
    within(await row('Key 12'))
      .getByRole('button', { name: 'Details' })
      .focus();
    await userEvent.keyboard('{Enter}');
    // Escape closing it is checked in the browser (e2e/api-keys.spec.ts): jsdom runs no drawer motion.
    expect(
      await within(await screen.findByRole('dialog')).findByLabelText('HTTPS URL'),
    ).toBeVisible();
  });

  it('shows a viewer of a team the settings with every control disabled, and why', async () => {
    useSession.setState({
      user: makeUser({ teamList: [{ teamId: TEAM, teamName: 'Globex', role: 'viewer' }] }),
      loginType: 'team',
      teamId: TEAM,
    });
    overrides.hub_getTeamUserProfile = () => ({
      teamId: TEAM,
      teamName: 'Globex',
      note: '',
      role: 'viewer',
      memberCount: 2,
      ownerName: 'Olga',
      createdAt: 0,
      joinedAt: 0,
      permissions: ['self', 'view'],
    });
    try {
      renderPage();
      await userEvent.click(within(await row('Key 12')).getByRole('button', { name: 'Details' }));
      const drawer = await screen.findByRole('dialog');
      await userEvent.click(within(drawer).getByRole('tab', { name: 'Advanced features' }));
      const archive = await within(drawer).findByRole('switch', { name: 'Archive mode' });
      expect(archive).toBeDisabled();
      expect(
        within(drawer).getByText(/can see the keys but not create, change or delete/),
      ).toBeVisible();
      await userEvent.click(archive);
      expect(calls('hub_setApiKeyAdvancedFeatures')).toEqual([]);
    } finally {
      useSession.setState({ user: null, loginType: null, teamId: null });
    }
  });

  it('switches advanced features with the right methods', async () => {
    const drawer = await openDetail();
    await userEvent.click(within(drawer).getByRole('tab', { name: 'Advanced features' }));
    const keyId = keys[0]!.keyId;
    await userEvent.click(await within(drawer).findByRole('switch', { name: 'Archive mode' }));
    await waitFor(() =>
      expect(calls('hub_setApiKeyAdvancedFeatures')).toEqual([
        { keyId, feature: 'archive_mode', enabled: true },
      ]),
    );
    // archive and MEV on both chains, the bundler only on localnet
    expect(within(drawer).getAllByText('Supported on: Localnet, Ethereum')).toHaveLength(2);
    expect(within(drawer).getByText('Supported on: Localnet')).toBeInTheDocument();

    await userEvent.click(within(drawer).getByRole('combobox', { name: 'MEV protection' }));
    await userEvent.click(await screen.findByTitle('Globalcast'));
    await waitFor(() => expect(calls('hub_setApiKeyMev')).toEqual([{ keyId, mev: 'globalcast' }]));

    await userEvent.click(within(drawer).getByRole('combobox', { name: 'Bundler' }));
    await userEvent.click(await screen.findByTitle('Pimlico'));
    await waitFor(() =>
      expect(calls('hub_setApiKeyBundler')).toEqual([{ keyId, bundler: 'pimlico' }]),
    );
  });

  it('rejects bad allowlist entries and saves good ones', async () => {
    const drawer = await openDetail();
    await userEvent.click(within(drawer).getByRole('tab', { name: 'Allowlists' }));
    const origins = await within(drawer).findByLabelText('Origins');
    await userEvent.type(origins, 'javascript:alert(1){Enter}');
    expect(
      await within(drawer).findByText('Not valid here: javascript:alert(1)'),
    ).toBeInTheDocument();
    expect(origins).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(origins);
    await userEvent.type(origins, 'https://App.example.com{Enter}');
    expect(within(drawer).getByText('https://app.example.com')).toBeInTheDocument();
    await userEvent.type(within(drawer).getByLabelText('IP addresses'), '999.1.1.1{Enter}');
    expect(await within(drawer).findByText('Not valid here: 999.1.1.1')).toBeInTheDocument();
    await userEvent.type(within(drawer).getByLabelText('Methods'), 'eth_call{Enter}');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Save allowlists' }));
    await waitFor(() =>
      expect(calls('hub_updateApiKey')).toEqual([
        {
          keyId: keys[0]!.keyId,
          allowlists: {
            origins: ['https://app.example.com'],
            ips: [],
            contracts: [],
            methods: ['eth_call'],
          },
        },
      ]),
    );
  });
});

describe('EndpointPage rate limits & RU costs', () => {
  it('shows the current tier, all tiers, the RU table with rules and the calculator', async () => {
    renderPage();
    await userEvent.click(screen.getByRole('tab', { name: 'Rate limits & RU costs' }));
    expect(await screen.findByText('Free plan')).toBeInTheDocument();
    expect(screen.getByText('123,456')).toBeInTheDocument();
    expect(screen.getByText('Elementary')).toBeInTheDocument();
    expect(await screen.findByText('eth_getLogs')).toBeInTheDocument();
    expect(screen.getByText('Requests served in archive mode cost 30% more.')).toBeInTheDocument();

    // Every method in one scrolling table, grouped; no pages and no internal version string.
    const prices = screen.getByRole('region', { name: 'RU cost per method' });
    const table = within(prices).getByRole('table');
    expect(within(table).getAllByRole('row').slice(1)).toHaveLength(15 + 9);
    const groups = within(table)
      .getAllByRole('rowheader')
      .map((h) => h.textContent);
    expect(groups).toEqual([
      'Chain and node info (3)',
      'Gas and fees (1)',
      'Accounts and contract state (2)',
      'Blocks (1)',
      'Transactions and receipts (2)',
      'Logs and filters (2)',
      'Subscriptions (WebSocket) (1)',
      'Account abstraction (ERC-4337) (1)',
      'Trace and debug (2)',
    ]);
    expect(screen.queryByText(/blockpi/i)).toBeNull();
    expect(screen.queryByText(/table version/i)).toBeNull();
    expect(prices.querySelector('.ant-pagination')).toBeNull();
    expect(prices.closest('.ant-card')!.querySelector('.ant-pagination')).toBeNull();
    expect(screen.getByText('15 methods')).toBeInTheDocument();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search methods' }), 'logs');
    expect(within(prices).queryByText('eth_blockNumber')).not.toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['Logs and filters (1)']);
    expect(screen.getByText('1 of 15 methods')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search methods' }), 'zzz');
    expect(screen.getByText('No method matches your search.')).toBeInTheDocument();
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search methods' }));

    // default: 1,000,000 eth_call a month at 10 req/s → 20,000,000 RUs, 200 RU/s, Free
    expect(screen.getByText('20,000,000')).toBeInTheDocument();
    const peak = screen.getByLabelText('Peak requests per second');
    await userEvent.clear(peak);
    await userEvent.type(peak, '100');
    expect(await screen.findByText('2,000')).toBeInTheDocument();
    expect(screen.getAllByText('Elementary').length).toBeGreaterThan(1);
  });
});

describe('EndpointPage gateway guide', () => {
  it('opens a tab from ?tab= and documents the endpoints, limits and every gateway error', async () => {
    renderPage('/rpc/endpoint?tab=guide');
    expect(screen.getByRole('tab', { name: 'Using the gateway' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(
      await screen.findByText('http://localhost:3001/v1/localnet/YOUR_API_KEY'),
    ).toBeInTheDocument();
    const errors = screen.getByRole('heading', { name: 'Errors' }).closest('.ant-card')!;
    const codes = within(errors as HTMLElement)
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell')[1]!.textContent);
    expect(codes).toEqual([
      '-32700',
      '-32600',
      '-32601',
      '-32003',
      '-32006',
      '-32004',
      '-32001',
      '-32005',
      '-32010',
      '-32002',
    ]);
    expect(errors).toHaveTextContent('Wait for Retry-After seconds; slow down or upgrade.');
    // its link to the limits switches the tab in place
    await userEvent.click(screen.getByRole('link', { name: /Your tier, every tier/ }));
    expect(screen.getByRole('tab', { name: 'Rate limits & RU costs' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('fills the code examples with a chosen key of the account, and links the API reference', async () => {
    renderPage('/rpc/endpoint?tab=guide');
    const examples = await screen.findByRole('group', { name: 'Code examples' });
    const curl = within(examples).getByRole('group', { name: 'Example request (curl)' });
    expect(curl).toHaveTextContent(
      `curl -X POST 'http://localhost:3001/v1/localnet/${keys[0]!.key}'`,
    );
    // every key on one page (an account has at most 50)
    expect(calls('hub_getApiKeys')).toEqual([{ page: 1, perPage: 50 }]);
    await userEvent.click(screen.getByRole('combobox', { name: 'API key' }));
    await userEvent.click(await screen.findByTitle('Key 7'));
    const key7 = keys.find((k) => k.name === 'Key 7')!.key;
    await waitFor(() =>
      expect(
        within(examples).getByRole('group', { name: 'Example request (curl)' }),
      ).toHaveTextContent(`'http://localhost:3001/v1/localnet/${key7}'`),
    );
    expect(screen.getByRole('link', { name: 'Open the console API reference' })).toHaveAttribute(
      'href',
      '/rpc/api-reference',
    );
  });

  it('uses the placeholder key in the examples, and says so, when the account has no key', async () => {
    keys = [];
    renderPage('/rpc/endpoint?tab=guide');
    expect(
      await screen.findByText(/You have no API key yet, so the examples use YOUR_API_KEY/),
    ).toBeVisible();
    expect(screen.queryByRole('combobox', { name: 'API key' })).toBeNull();
    const examples = screen.getByRole('group', { name: 'Code examples' });
    expect(
      within(examples).getByRole('group', { name: 'Example request (curl)' }),
    ).toHaveTextContent("curl -X POST 'http://localhost:3001/v1/localnet/YOUR_API_KEY'");
  });

  it('?tab=limits opens the rate limits, an unknown tab the keys', async () => {
    renderPage('/rpc/endpoint?tab=limits');
    expect(screen.getByRole('tab', { name: 'Rate limits & RU costs' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    cleanup();
    renderPage('/rpc/endpoint?tab=nonsense');
    expect(screen.getByRole('tab', { name: 'API keys' })).toHaveAttribute('aria-selected', 'true');
  });
});

describe('EndpointPage in Chinese', () => {
  it('names the create button, the field and the copy buttons in Chinese', async () => {
    await act(() => i18n.changeLanguage('zh'));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: '创建 API Key' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('名称')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: '创建' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: '今日请求数' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: '今日 RU' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: '取消' }));
    await userEvent.click(within(await row('Key 12')).getByRole('button', { name: '详情' }));
    const drawer = await screen.findByRole('dialog');
    expect(
      await within(drawer).findByRole('button', { name: '复制 HTTPS 地址' }),
    ).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: '复制 WSS 地址' })).toBeInTheDocument();
  });
});
