/**
 * The dedicated-node screens against the shared fake API (every call's params and every answer checked against the
 * contract) and a fake Stripe.js (lib/stripe.ts): the links between them (SPEC §2), the node list with its paging,
 * filter, endpoints and history, renewing, the purchase wizard and its refusals, card orders followed to their end,
 * a role without billing, and the Chinese texts.
 */
import type {
  TCard,
  TCardOrder,
  TDnEventReason,
  TDnNode,
  TDnSku,
  TMethodName,
  TParamsIn,
} from '@rpc/contract';
import { DN_EVENT_REASONS, ERROR_CODES } from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import type { ComponentType, ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CARD_POLL_MS } from '../../lib/card-order/follow-card-order';
import { i18n, initI18n } from '../../lib/i18n';
import { startIconLabels } from '../../lib/i18n-icons';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, TRANSPORT_ERROR_CODE, callRpc } from '../../lib/rpc-client';
import { useSession } from '../../lib/session';
import { getStripe } from '../../lib/stripe';
import type { TFakeHandler } from '../../test/fake-api';
import { fakeRpc } from '../../test/fake-api';
import { makePublicConfig, makeUser } from '../../test/fixtures';
import { DedicatedNodeListPage } from './components/dedicated-node-list-page';
import { DedicatedNodeNewPage } from './components/dedicated-node-new-page';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

vi.mock('../../lib/stripe', () => ({ getStripe: vi.fn() }));

const rpc = vi.mocked(callRpc);
const loadStripe = vi.mocked(getStripe);
/** What the card flow asks of Stripe.js: confirmCardPayment when the card wants 3-D Secure. */
const stripe = {
  confirmCardPayment: vi.fn(async (_secret: string) => ({
    paymentIntent: { id: 'pi_1', status: 'succeeded' },
  })),
};

// --- Fake data ---

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.now();
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const KEY = /^[A-Za-z0-9_-]{8,64}$/;

function makeSku(archiveMonthlyCents = 900): TDnSku {
  return {
    version: '2026-12-01.1',
    currency: 'USD',
    chains: [
      {
        id: 'localnet',
        name: { en: 'Localnet (Hardhat)', zh: '本地测试链（Hardhat）' },
        nodeTypes: [
          { type: 'full', monthlyCents: 500 },
          { type: 'archive', monthlyCents: archiveMonthlyCents },
        ],
        regions: ['local'],
        isAvailable: true,
      },
      {
        id: 'ethereum',
        name: { en: 'Ethereum', zh: '以太坊' },
        nodeTypes: [
          { type: 'full', monthlyCents: 49900 },
          { type: 'archive', monthlyCents: 119900 },
        ],
        regions: ['us-east', 'eu-central'],
        isAvailable: false,
      },
    ],
    regions: [
      { id: 'local', name: { en: 'This server', zh: '本机' } },
      { id: 'us-east', name: { en: 'US East', zh: '美国东部' } },
      { id: 'eu-central', name: { en: 'Europe', zh: '欧洲' } },
    ],
    periods: [
      { months: 1, discountPercent: 0 },
      { months: 3, discountPercent: 5 },
      { months: 6, discountPercent: 10 },
      { months: 12, discountPercent: 15 },
    ],
    willExpireDays: 3,
    graceDays: 7,
  };
}

function makeNode(n: number, patch: Partial<TDnNode> = {}): TDnNode {
  const id = uuid(n);
  return {
    id,
    chain: 'ethereum',
    chainName: { en: 'Ethereum', zh: '以太坊' },
    nodeType: 'full',
    region: 'us-east',
    regionName: { en: 'US East', zh: '美国东部' },
    status: 'online',
    endpoint: {
      httpUrlTemplate: `https://dn.example.com/v1/${id}/{key}`,
      wsUrlTemplate: `wss://dn.example.com/v1/${id}/{key}`,
    },
    createdAt: NOW - 30 * DAY - n * 60_000,
    onlineAt: NOW - 30 * DAY,
    expiresAt: NOW + 20 * DAY,
    graceEndsAt: NOW + 27 * DAY,
    dataDeletedAt: null,
    months: 1,
    isRenewable: true,
    autoRenew: false,
    history: [
      { status: 'pending', at: NOW - 30 * DAY - HOUR, reason: 'ordered' },
      { status: 'online', at: NOW - 30 * DAY, reason: 'answering' },
    ],
    ...patch,
  };
}

/** One node of every SPEC §3 status, each on its own chain so a row is found by its chain. */
function nodesOfEveryStatus(): TDnNode[] {
  const chain = (en: string, zh: string) => ({ chain: en.toLowerCase(), chainName: { en, zh } });
  return [
    makeNode(1, { ...chain('Ethereum', '以太坊'), status: 'online' }),
    makeNode(2, {
      ...chain('Base', 'Base'),
      status: 'will_expired',
      expiresAt: NOW + 3 * DAY - 2 * HOUR,
    }),
    makeNode(3, {
      ...chain('Polygon', 'Polygon'),
      status: 'pending',
      onlineAt: null,
      history: [{ status: 'pending', at: NOW - HOUR, reason: 'ordered' }],
    }),
    makeNode(4, { ...chain('Gnosis', 'Gnosis'), status: 'stopped' }),
    makeNode(5, {
      ...chain('Arbitrum', 'Arbitrum'),
      status: 'expired',
      expiresAt: NOW - 2 * DAY + 2 * HOUR,
      graceEndsAt: NOW + 5 * DAY + 2 * HOUR,
    }),
  ];
}

const CARD: TCard = {
  id: 'pm_visa4242',
  brand: 'visa',
  last4: '4242',
  expMonth: 12,
  expYear: 2030,
  isDefault: true,
  isExpired: false,
};

function paid(node: TDnNode, kind: 'buy' | 'renew', p: { months: number; expectedCents: number }) {
  return {
    order: {
      id: uuid(900),
      kind,
      nodeId: node.id,
      months: p.months,
      monthlyCents: 900,
      discountPercent: 0,
      priceCents: p.expectedCents,
      channel: 'wallet' as const,
      skuVersion: '2026-12-01.1',
      expiresBefore: kind === 'buy' ? null : node.expiresAt,
      expiresAfter: node.expiresAt + 30 * DAY,
      createdAt: NOW,
    },
    node,
    wallet: {
      currency: 'USD' as const,
      amount: '10.00',
      amountCents: 1000,
      arrears: '0.00',
      arrearsCents: 0,
      ruLeft: 0,
      tier: 'free',
      isPaygActive: false,
      packages: [],
    },
  };
}

const PK = 'pk_test_123';
/** The node a card purchase buys, once the payment settles. */
const CARD_NODE_ID = uuid(78);
const SETTLED = { isSettled: true, settledAt: NOW } as const;

function makeCardOrder(patch: Partial<TCardOrder> = {}): TCardOrder {
  return {
    orderId: uuid(600),
    kind: 'dn_buy',
    status: 'pending',
    isSettled: false,
    amountCents: 2565,
    amount: '25.65',
    skuId: null,
    skuName: null,
    clientSecret: null,
    purchaseId: null,
    nodeId: null,
    failureCode: null,
    card: { brand: 'visa', last4: '4242' },
    createdAt: NOW,
    settledAt: null,
    ...patch,
  };
}

/** The order of a node bought by card and paid. */
const boughtByCard = () => makeCardOrder({ status: 'succeeded', ...SETTLED, nodeId: CARD_NODE_ID });

/** Card payments configured, with one saved card. */
function withCards() {
  overrides.hub_getConfig = () => makePublicConfig({ stripePublishableKey: PK });
  overrides.hub_getCreditCardList = () => ({ isConfigured: true, list: [CARD] });
}

function refusal(method: string, code: number) {
  return new RpcCallError(method, { code, message: `refused ${code}`, messageZh: `拒绝 ${code}` });
}

function lostAnswer(method: string) {
  return new RpcCallError(method, {
    code: TRANSPORT_ERROR_CODE,
    message: 'Network Error',
    messageZh: '网络错误',
  });
}

// --- The fake server ---

let nodes: TDnNode[];
let sku: TDnSku;
let overrides: Partial<Record<TMethodName, TFakeHandler>>;
/** what hub_polling answers, one per poll; the last one repeats */
let polls: TCardOrder[];

/** As the server does once a card purchase is paid: the node exists, pending. */
function settleOnServer(order: TCardOrder): TCardOrder {
  if (
    order.kind === 'dn_buy' &&
    order.status === 'succeeded' &&
    order.nodeId &&
    !nodes.some((n) => n.id === order.nodeId)
  ) {
    const node = makeNode(78, {
      chain: 'localnet',
      chainName: { en: 'Localnet (Hardhat)', zh: '本地测试链（Hardhat）' },
      nodeType: 'archive',
      region: 'local',
      regionName: { en: 'This server', zh: '本机' },
      status: 'pending',
      onlineAt: null,
      createdAt: NOW,
      history: [{ status: 'pending', at: NOW, reason: 'ordered' }],
    });
    nodes = [node, ...nodes];
  }
  return order;
}

const handlers: Partial<Record<TMethodName, TFakeHandler>> = {
  hub_getDnSku: () => sku,
  hub_getUserDnNodeView: (p: TParamsIn<'hub_getUserDnNodeView'>) => {
    const page = p.page ?? 1;
    const perPage = p.perPage ?? 5;
    const found = nodes.filter((n) => !p.status || p.status === 'all' || n.status === p.status);
    return {
      list: found.slice((page - 1) * perPage, page * perPage),
      total: found.length,
      page,
      perPage,
    };
  },
  // Card payments are not configured unless a test says so.
  hub_getConfig: () => makePublicConfig(),
  hub_getCreditCardList: () => ({ isConfigured: false, list: [] }),
  hub_buyDnNodeByWallet: (p: TParamsIn<'hub_buyDnNodeByWallet'>) => {
    const node = makeNode(77, {
      chain: p.chain,
      chainName: { en: 'Localnet (Hardhat)', zh: '本地测试链（Hardhat）' },
      nodeType: p.nodeType,
      region: p.region,
      regionName: { en: 'This server', zh: '本机' },
      status: 'pending',
      onlineAt: null,
      createdAt: NOW,
      history: [{ status: 'pending', at: NOW, reason: 'ordered' }],
    });
    nodes = [node, ...nodes];
    return paid(node, 'buy', p);
  },
  hub_renewDnNodeByWallet: (p: TParamsIn<'hub_renewDnNodeByWallet'>) =>
    paid(
      nodes.find((n) => n.id === p.nodeId)!,
      'renew',
      p,
    ),
  // A card order answers first as pending; hub_polling then answers `polls`.
  hub_buyDnNodeByCard: (p: TParamsIn<'hub_buyDnNodeByCard'>) =>
    makeCardOrder({ amountCents: p.expectedCents, amount: (p.expectedCents / 100).toFixed(2) }),
  hub_renewDnNodeByCard: (p: TParamsIn<'hub_renewDnNodeByCard'>) =>
    makeCardOrder({
      kind: 'dn_renew',
      nodeId: p.nodeId,
      amountCents: p.expectedCents,
      amount: (p.expectedCents / 100).toFixed(2),
    }),
  hub_polling: () => settleOnServer(polls.length > 1 ? polls.shift()! : polls[0]!),
};

function calls<N extends TMethodName>(method: N) {
  return rpc.mock.calls.filter(([name]) => name === method).map(([, p]) => p as TParamsIn<N>);
}

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname}</output>;
}

function Search() {
  return <output aria-label="search">{useLocation().search}</output>;
}

function providers(path: string, routes: ReactNode) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      {/* As the app's providers: no space squeezed into two-character Chinese button names. */}
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>{routes}</Routes>
          <Where />
          <Search />
        </MemoryRouter>
      </ConfigProvider>
    </QueryClientProvider>,
  );
}

/** One page at any path (the link tests watch only the location). */
function renderAt(path: string, Page: ComponentType) {
  return providers(path, <Route path="*" element={<Page />} />);
}

/** Both screens at their routes, in either language. */
function renderApp(path: string) {
  return providers(
    path,
    <>
      <Route path="/:lang?/rpc/dedicated-node" element={<DedicatedNodeListPage />} />
      <Route path="/:lang?/rpc/dedicated-node/new" element={<DedicatedNodeNewPage />} />
    </>,
  );
}

/** The table row of the node on `chain` (a regex source; the cell may carry the "New" mark too). */
async function rowOf(chain: string) {
  const cell = await screen.findByRole('cell', { name: new RegExp(`^${chain}(\\s*(New|新))?$`) });
  return within(cell.closest('tr')!);
}

let stopIconLabels: () => void;

beforeAll(async () => {
  await initI18n('en');
  // As the app's providers: antd's own icon names ("loading") stay out of the controls' names.
  stopIconLabels = startIconLabels();
});

afterAll(() => {
  stopIconLabels();
});

beforeEach(async () => {
  nodes = [];
  sku = makeSku();
  overrides = {};
  polls = [boughtByCard()];
  stripe.confirmCardPayment.mockClear();
  loadStripe.mockReset();
  loadStripe.mockImplementation(async () => stripe as never);
  rpc.mockReset();
  rpc.mockImplementation(fakeRpc(() => ({ ...handlers, ...overrides })));
  await act(() => i18n.changeLanguage('en'));
});

afterEach(() => {
  useSession.setState({ user: null, loginType: null, teamId: null });
});

async function chooseStep(heading: string, option: RegExp | string) {
  expect(await screen.findByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('radio', { name: option }));
  await userEvent.click(screen.getByRole('button', { name: 'Next' }));
}

/** Localnet, archive, its one region, 3 months: 3 × $9.00 less 5% = $25.65. */
async function walkToReview() {
  await chooseStep('Step 1 of 5: Chain', /^Localnet \(Hardhat\)/);
  await chooseStep('Step 2 of 5: Node type', /^Archive node/);
  // The chain runs in one region only: it is chosen already.
  expect(await screen.findByRole('radio', { name: 'This server' })).toBeChecked();
  await userEvent.click(screen.getByRole('button', { name: 'Next' }));
  await chooseStep('Step 4 of 5: Period', /^3 months/);
  expect(
    await screen.findByRole('heading', { level: 2, name: 'Step 5 of 5: Review and pay' }),
  ).toHaveFocus();
}

describe('dedicated-node links', () => {
  it.each([
    ['/rpc/dedicated-node', DedicatedNodeListPage, 'New dedicated node', '/rpc/dedicated-node/new'],
    [
      '/rpc/dedicated-node/new',
      DedicatedNodeNewPage,
      'Back to dedicated nodes',
      '/rpc/dedicated-node',
    ],
  ] as const)('%s links "%s" to %s', async (path, Page, name, target) => {
    renderAt(path, Page);
    const link = screen.getByRole('link', { name });
    expect(link).toHaveAttribute('href', target);
    await userEvent.click(link);
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent(target);
  });

  it('without nodes, says so and links to the wizard', async () => {
    renderApp('/rpc/dedicated-node');
    expect(await screen.findByText('You have no dedicated nodes yet.')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Order your first node' });
    expect(link).toHaveAttribute('href', '/rpc/dedicated-node/new');
    expect(screen.getByRole('heading', { level: 1, name: 'Dedicated nodes' })).toBeInTheDocument();
  });
});

describe('node list', () => {
  it('shows every status in words, endpoints with copy only while the node answers, expiry in words', async () => {
    nodes = nodesOfEveryStatus();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp('/rpc/dedicated-node');

    const online = await rowOf('Ethereum');
    expect(online.getByText('Online')).toBeInTheDocument();
    expect(online.getByText('Full node')).toBeInTheDocument();
    expect(online.getByText('US East')).toBeInTheDocument();
    expect(online.getByText(`https://dn.example.com/v1/${uuid(1)}/{key}`)).toBeInTheDocument();
    await userEvent.click(online.getByRole('button', { name: 'Copy WebSocket URL' }));
    expect(writeText).toHaveBeenCalledWith(`wss://dn.example.com/v1/${uuid(1)}/{key}`);
    // Said beside the button, in its tooltip.
    expect(await screen.findByText('Copied to the clipboard.')).toBeInTheDocument();

    const expiring = await rowOf('Base');
    expect(expiring.getByText('Expiring soon')).toBeInTheDocument();
    expect(expiring.getByText('in 3 days')).toBeInTheDocument();
    expect(expiring.getByRole('button', { name: 'Copy HTTP URL' })).toBeInTheDocument();

    const pending = await rowOf('Polygon');
    expect(pending.getByText('Pending')).toBeInTheDocument();
    expect(pending.queryByRole('button', { name: /^Copy/ })).not.toBeInTheDocument();
    expect(pending.getByText(/Being set up: the endpoints appear here/)).toBeInTheDocument();

    const stopped = await rowOf('Gnosis');
    expect(stopped.getByText('Stopped')).toBeInTheDocument();
    expect(stopped.queryByRole('button', { name: /^Copy/ })).not.toBeInTheDocument();

    const expired = await rowOf('Arbitrum');
    expect(expired.getByText('Expired')).toBeInTheDocument();
    expect(expired.getByText('2 days ago')).toBeInTheDocument();
    expect(
      expired.getByText(/^Data kept until \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/),
    ).toBeInTheDocument();
    expect(expired.queryByRole('button', { name: /^Copy/ })).not.toBeInTheDocument();
    expect(screen.getByText('5 nodes')).toBeInTheDocument();
  });

  it('pages with the SPEC §9 parameters and filters by status from page 1', async () => {
    nodes = Array.from({ length: 12 }, (_, i) =>
      makeNode(i + 1, {
        chain: `chain${i + 1}`,
        chainName: { en: `Chain ${i + 1}`, zh: `链 ${i + 1}` },
        status: i % 4 === 0 ? 'expired' : 'online',
      }),
    );
    renderApp('/rpc/dedicated-node');
    await rowOf('Chain 1');
    expect(calls('hub_getUserDnNodeView')).toEqual([{ page: 1, perPage: 5, status: 'all' }]);

    await userEvent.click(screen.getByTitle('3'));
    await rowOf('Chain 11');
    expect(calls('hub_getUserDnNodeView').at(-1)).toEqual({ page: 3, perPage: 5, status: 'all' });

    await userEvent.click(screen.getByRole('combobox', { name: /page size/i }));
    const sizes = screen
      .getAllByRole('option')
      .filter((el) => el.classList.contains('ant-select-item-option'))
      .map((el) => el.getAttribute('title'));
    expect(sizes).toEqual(['5 / page', '10 / page', '15 / page', '20 / page']);
    await userEvent.click(screen.getAllByTitle('10 / page').at(-1)!);
    await waitFor(() =>
      expect(calls('hub_getUserDnNodeView').at(-1)).toEqual({
        page: 1,
        perPage: 10,
        status: 'all',
      }),
    );

    await userEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(calls('hub_getUserDnNodeView').at(-1)).toMatchObject({ page: 2 }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    const expiredOption = (await screen.findAllByTitle('Expired')).find((el) =>
      el.classList.contains('ant-select-item-option'),
    )!;
    await userEvent.click(expiredOption);
    await waitFor(() =>
      expect(calls('hub_getUserDnNodeView').at(-1)).toEqual({
        page: 1,
        perPage: 10,
        status: 'expired',
      }),
    );
    expect(await screen.findByText('3 nodes')).toBeInTheDocument();
    await rowOf('Chain 9');
    expect(screen.queryByRole('cell', { name: /^Chain 2$/ })).not.toBeInTheDocument();
  });

  it('expands a row to its status history, each change with its time', async () => {
    nodes = [
      makeNode(1, {
        status: 'will_expired',
        history: [
          { status: 'pending', at: new Date(2026, 0, 1, 9, 0).getTime(), reason: 'ordered' },
          { status: 'online', at: new Date(2026, 0, 1, 9, 5).getTime(), reason: 'answering' },
          {
            status: 'will_expired',
            at: new Date(2026, 0, 29, 0, 0).getTime(),
            reason: 'expires_soon',
          },
        ],
      }),
    ];
    renderApp('/rpc/dedicated-node');
    const row = await rowOf('Ethereum');
    const toggle = row.getByRole('button', {
      name: 'Show status history of Ethereum Full node · US East',
    });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    const history = within(await screen.findByRole('region', { name: 'Status history' }));
    const items = history.getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      '2026-01-01 09:00PendingOrdered',
      '2026-01-01 09:05OnlineSet up and answering',
      '2026-01-29 00:00Expiring soonExpires within 3 days: renew it to keep it running',
    ]);
    expect(
      row.getByRole('button', { name: 'Hide status history of Ethereum Full node · US East' }),
    ).toHaveAttribute('aria-expanded', 'true');
  });

  it('marks the node just bought and says what happens next', async () => {
    nodes = [makeNode(1), makeNode(2, { chain: 'base', chainName: { en: 'Base', zh: 'Base' } })];
    renderApp(`/rpc/dedicated-node?created=${uuid(2)}`);
    expect(await screen.findByText(/Your node is ordered and paid/)).toBeInTheDocument();
    expect((await rowOf('Base')).getByText('New')).toBeInTheDocument();
    expect((await rowOf('Ethereum')).queryByText('New')).not.toBeInTheDocument();
  });

  it('shows a failed load with a way to try again', async () => {
    let failures = 1;
    overrides.hub_getUserDnNodeView = (p: never) => {
      if (failures-- > 0) throw refusal('hub_getUserDnNodeView', 10500);
      return handlers.hub_getUserDnNodeView!(p);
    };
    nodes = [makeNode(1)];
    renderApp('/rpc/dedicated-node');
    expect(await screen.findByText('Your nodes could not be loaded.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await rowOf('Ethereum');
  });
});

describe('renewing a node', () => {
  it('pays the confirmed price with one key; after a lost answer the same key again', async () => {
    nodes = [makeNode(1, { status: 'will_expired', expiresAt: NOW + 2 * DAY })];
    let failures = 1;
    overrides.hub_renewDnNodeByWallet = (p: never) => {
      if (failures-- > 0) throw lostAnswer('hub_renewDnNodeByWallet');
      return handlers.hub_renewDnNodeByWallet!(p);
    };
    renderApp('/rpc/dedicated-node');
    const row = await rowOf('Ethereum');
    await userEvent.click(row.getByRole('button', { name: 'Renew Ethereum Full node · US East' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Renew Ethereum Full node · US East' }),
    );
    // 1 month is chosen first; 3 months is 5% off: 3 × $499.00 − $74.85.
    await userEvent.click(await dialog.findByRole('radio', { name: '3 months (5% off)' }));
    expect(dialog.getByText('$1,497.00')).toBeInTheDocument();
    expect(dialog.getByText('−$74.85')).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Pay $1,422.15' }));

    expect(await dialog.findByText(/charged at most once/)).toBeInTheDocument();
    // The attempt's terms are locked while its outcome is unknown.
    expect(dialog.getByRole('radio', { name: '1 month' })).toBeDisabled();
    await userEvent.click(
      await dialog.findByRole('button', { name: 'Try paying $1,422.15 again' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const [first, second] = calls('hub_renewDnNodeByWallet');
    expect(first).toEqual({
      nodeId: uuid(1),
      months: 3,
      idempotencyKey: expect.stringMatching(KEY),
      expectedCents: 142_215,
    });
    expect(second).toEqual(first);
    expect(await screen.findByText('Ethereum Full node · US East is renewed.')).toBeInTheDocument();

    // Opening the dialog again is another attempt.
    await userEvent.click(
      (await rowOf('Ethereum')).getByRole('button', { name: 'Renew Ethereum Full node · US East' }),
    );
    const again = within(await screen.findByRole('dialog'));
    await userEvent.click(await again.findByRole('button', { name: 'Pay $499.00' }));
    await waitFor(() => expect(calls('hub_renewDnNodeByWallet')).toHaveLength(3));
    expect(calls('hub_renewDnNodeByWallet')[2]!.idempotencyKey).not.toBe(first!.idempotencyKey);
  });

  it('with too little balance links to the top-up page and keeps the dialog open', async () => {
    nodes = [makeNode(1)];
    overrides.hub_renewDnNodeByWallet = () => {
      throw refusal('hub_renewDnNodeByWallet', ERROR_CODES.INSUFFICIENT_BALANCE);
    };
    renderApp('/rpc/dedicated-node');
    await userEvent.click((await rowOf('Ethereum')).getByRole('button', { name: /^Renew/ }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.click(await dialog.findByRole('button', { name: 'Pay $499.00' }));
    expect(await dialog.findByText(/Your wallet balance is not enough/)).toBeInTheDocument();
    expect(dialog.getByRole('link', { name: 'Top up your wallet' })).toHaveAttribute(
      'href',
      '/rpc/billings/charge',
    );
  });

  it('offers no Renew once the grace period is over, and says why', async () => {
    nodes = [
      makeNode(1, {
        status: 'expired',
        expiresAt: NOW - 10 * DAY,
        graceEndsAt: NOW - 3 * DAY,
        dataDeletedAt: NOW - 3 * DAY,
        isRenewable: false,
      }),
    ];
    renderApp('/rpc/dedicated-node');
    const row = await rowOf('Ethereum');
    expect(row.getByRole('button', { name: /^Renew/ })).toBeDisabled();
    expect(row.getByText('Its grace period is over: buy a new node instead.')).toBeInTheDocument();
    expect(row.getByText(/Expired and its data deleted/)).toBeInTheDocument();
  });
});

describe('purchase wizard', () => {
  it('walks chain, type, region and period, pays the shown price and opens the list at the new node', async () => {
    renderApp('/rpc/dedicated-node/new');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'New dedicated node' }),
    ).toBeInTheDocument();
    // A chain this server cannot run is shown, not sold.
    expect(
      await screen.findByRole('radio', { name: /^Ethereum · not available on this server yet/ }),
    ).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await chooseStep('Step 1 of 5: Chain', /^Localnet \(Hardhat\) · from \$5\.00 \/ month/);
    // Each step's heading takes the focus, so the keyboard lands on the question.
    expect(screen.getByRole('heading', { level: 2, name: 'Step 2 of 5: Node type' })).toHaveFocus();
    await chooseStep('Step 2 of 5: Node type', /^Archive node · \$9\.00 \/ month/);
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(
      screen.getByRole('radio', { name: /^3 months · \$25\.65 · save 5% \(\$1\.35\)/ }),
    ).toBeInTheDocument();
    await chooseStep('Step 4 of 5: Period', /^3 months/);

    expect(await screen.findByText('Localnet (Hardhat)')).toBeInTheDocument();
    expect(screen.getByText('Archive node')).toBeInTheDocument();
    expect(screen.getByText('This server')).toBeInTheDocument();
    expect(screen.getByText('$27.00')).toBeInTheDocument();
    expect(screen.getByText('−$1.35')).toBeInTheDocument();
    // No card payments configured: the wallet pays, without a choice to make.
    expect(screen.queryByRole('radio', { name: 'Card' })).not.toBeInTheDocument();
    expect(calls('hub_buyDnNodeByWallet')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Pay $25.65' }));
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent(
        /^\/rpc\/dedicated-node$/,
      ),
    );
    expect(calls('hub_buyDnNodeByWallet')).toEqual([
      {
        chain: 'localnet',
        nodeType: 'archive',
        region: 'local',
        months: 3,
        idempotencyKey: expect.stringMatching(KEY),
        expectedCents: 2565,
      },
    ]);
    expect(screen.getByRole('status', { name: 'search' })).toHaveTextContent(
      `?created=${uuid(77)}`,
    );
    expect(await screen.findByText(/Your node is ordered and paid/)).toBeInTheDocument();
    const row = await rowOf('Localnet \\(Hardhat\\)');
    expect(row.getByText('New')).toBeInTheDocument();
    expect(row.getByText('Pending')).toBeInTheDocument();
  });

  it('with too little balance links to the top-up page', async () => {
    overrides.hub_buyDnNodeByWallet = () => {
      throw refusal('hub_buyDnNodeByWallet', ERROR_CODES.INSUFFICIENT_BALANCE);
    };
    renderApp('/rpc/dedicated-node/new');
    await walkToReview();
    await userEvent.click(screen.getByRole('button', { name: 'Pay $25.65' }));
    expect(await screen.findByText(/Your wallet balance is not enough/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Top up your wallet' })).toHaveAttribute(
      'href',
      '/rpc/billings/charge',
    );
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent(
      '/rpc/dedicated-node/new',
    );
  });

  it('when the price changed, shows the new one and pays it with a new key', async () => {
    overrides.hub_buyDnNodeByWallet = (p: TParamsIn<'hub_buyDnNodeByWallet'>) => {
      const monthly = sku.chains[0]!.nodeTypes[1]!.monthlyCents;
      const price = monthly * 3 - Math.floor((monthly * 3 * 5) / 100);
      if (p.expectedCents !== price) {
        throw refusal('hub_buyDnNodeByWallet', ERROR_CODES.PRICE_CHANGED);
      }
      return handlers.hub_buyDnNodeByWallet!(p as never);
    };
    renderApp('/rpc/dedicated-node/new');
    await walkToReview();
    sku = makeSku(1000);
    await userEvent.click(screen.getByRole('button', { name: 'Pay $25.65' }));
    expect(await screen.findByText(/The price has changed/)).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Pay $28.50' }));
    await waitFor(() => expect(calls('hub_buyDnNodeByWallet')).toHaveLength(2));
    const [first, second] = calls('hub_buyDnNodeByWallet');
    expect(first!.expectedCents).toBe(2565);
    expect(second!.expectedCents).toBe(2850);
    expect(second!.idempotencyKey).not.toBe(first!.idempotencyKey);
  });

  it('after a lost answer keeps the attempt: Back is locked and paying again sends the same key', async () => {
    let failures = 1;
    overrides.hub_buyDnNodeByWallet = (p: never) => {
      if (failures-- > 0) throw lostAnswer('hub_buyDnNodeByWallet');
      return handlers.hub_buyDnNodeByWallet!(p);
    };
    renderApp('/rpc/dedicated-node/new');
    await walkToReview();
    await userEvent.click(screen.getByRole('button', { name: 'Pay $25.65' }));
    expect(await screen.findByText(/charged at most once/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'See my nodes' })).toHaveAttribute(
      'href',
      '/rpc/dedicated-node',
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Try paying $25.65 again' }));
    await waitFor(() => expect(calls('hub_buyDnNodeByWallet')).toHaveLength(2));
    const [first, second] = calls('hub_buyDnNodeByWallet');
    expect(second).toEqual(first);
  });

  it.each([
    ['10803', ERROR_CODES.CARD_PAYMENT_UNAVAILABLE],
    ['10802', ERROR_CODES.CARDS_NOT_CONFIGURED],
  ])(
    'offers the card only when cards are configured, and after %s pays from the wallet',
    async (_name, code) => {
      withCards();
      overrides.hub_buyDnNodeByCard = () => {
        throw refusal('hub_buyDnNodeByCard', code);
      };
      renderApp('/rpc/dedicated-node/new');
      await walkToReview();
      await userEvent.click(await screen.findByRole('radio', { name: 'Card' }));
      expect(screen.getByRole('combobox', { name: 'Card to charge' })).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Pay $25.65' }));

      expect(
        await screen.findByText(
          'Card payments are not available on this console right now. Nothing was charged: pay from your wallet instead.',
        ),
      ).toBeInTheDocument();
      const [byCard] = calls('hub_buyDnNodeByCard');
      expect(byCard).toEqual({
        chain: 'localnet',
        nodeType: 'archive',
        region: 'local',
        months: 3,
        idempotencyKey: expect.stringMatching(KEY),
        expectedCents: 2565,
        cardId: CARD.id,
      });
      expect(screen.getByRole('radio', { name: 'Card (not available now)' })).toBeDisabled();
      expect(screen.getByRole('radio', { name: 'Wallet balance' })).toBeChecked();

      await userEvent.click(await screen.findByRole('button', { name: 'Pay $25.65' }));
      await waitFor(() => expect(calls('hub_buyDnNodeByWallet')).toHaveLength(1));
      expect(calls('hub_buyDnNodeByWallet')[0]!.idempotencyKey).not.toBe(byCard!.idempotencyKey);
    },
  );
});

describe('paying by card', () => {
  beforeEach(withCards);

  async function payByCard(amount = '$25.65') {
    await walkToReview();
    // The progress region is on screen before paying, so each change is announced.
    expect(await screen.findByRole('status', { name: 'Card payment' })).toBeEmptyDOMElement();
    await userEvent.click(await screen.findByRole('radio', { name: 'Card' }));
    await userEvent.click(screen.getByRole('button', { name: `Pay ${amount}` }));
  }

  const progress = () => within(screen.getByRole('status', { name: 'Card payment' }));

  it('sends the card order with the shown price, polls until paid, and opens the list at the new node', async () => {
    polls = [makeCardOrder(), boughtByCard()];
    renderApp('/rpc/dedicated-node/new');
    await payByCard();
    await waitFor(() => expect(calls('hub_buyDnNodeByCard')).toHaveLength(1));
    expect(calls('hub_buyDnNodeByCard')[0]).toEqual({
      chain: 'localnet',
      nodeType: 'archive',
      region: 'local',
      months: 3,
      idempotencyKey: expect.stringMatching(KEY),
      expectedCents: 2565,
      cardId: CARD.id,
    });
    expect(await progress().findByText('Processing the card payment…')).toBeInTheDocument();
    // Locked while the order runs: the terms of a payment on its way cannot change.
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Wallet balance' })).toBeDisabled();

    await waitFor(
      () =>
        expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent(
          /^\/rpc\/dedicated-node$/,
        ),
      { timeout: 3 * CARD_POLL_MS + 2000 },
    );
    expect(screen.getByRole('status', { name: 'search' })).toHaveTextContent(
      `?created=${CARD_NODE_ID}`,
    );
    expect(calls('hub_polling')).toEqual([{ orderId: uuid(600) }, { orderId: uuid(600) }]);
    expect(stripe.confirmCardPayment).not.toHaveBeenCalled();
    expect(calls('hub_buyDnNodeByWallet')).toHaveLength(0);
    expect(await screen.findByText(/Your node is ordered and paid/)).toBeInTheDocument();
    const row = await rowOf('Localnet \\(Hardhat\\)');
    expect(row.getByText('New')).toBeInTheDocument();
    expect(row.getByText('Pending')).toBeInTheDocument();
  }, 15_000);

  it('authenticates a card that asks for it with Stripe.js, then polls until paid', async () => {
    overrides.hub_buyDnNodeByCard = () =>
      makeCardOrder({ status: 'requires_action', clientSecret: 'pi_dn_secret_3ds' });
    polls = [boughtByCard()];
    renderApp('/rpc/dedicated-node/new');
    await payByCard();
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'search' })).toHaveTextContent(
        `?created=${CARD_NODE_ID}`,
      ),
    );
    expect(loadStripe).toHaveBeenCalledWith(PK);
    expect(stripe.confirmCardPayment).toHaveBeenCalledWith('pi_dn_secret_3ds');
    expect(calls('hub_polling')).toEqual([{ orderId: uuid(600) }]);
  });

  it('says why a declined card did not pay; paying again is a new attempt with a new key', async () => {
    polls = [makeCardOrder({ status: 'failed', ...SETTLED, failureCode: 'insufficient_funds' })];
    renderApp('/rpc/dedicated-node/new');
    await payByCard();
    expect(
      await progress().findByText(
        'The payment did not go through: the card has insufficient funds. Nothing was charged.',
        {},
        { timeout: 3 * CARD_POLL_MS + 2000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent(
      '/rpc/dedicated-node/new',
    );
    // Nothing was charged: the choices are free again.
    expect(screen.getByRole('button', { name: 'Back' })).toBeEnabled();

    polls = [boughtByCard()];
    // (under jsdom antd's loading icon never finishes leaving, so the name may still start with "loading")
    await userEvent.click(screen.getByRole('button', { name: /Pay \$25\.65$/ }));
    await waitFor(() => expect(calls('hub_buyDnNodeByCard')).toHaveLength(2));
    const [first, second] = calls('hub_buyDnNodeByCard');
    expect(second!.idempotencyKey).not.toBe(first!.idempotencyKey);
    expect({ ...second, idempotencyKey: '' }).toEqual({ ...first, idempotencyKey: '' });
    await waitFor(
      () =>
        expect(screen.getByRole('status', { name: 'search' })).toHaveTextContent(
          `?created=${CARD_NODE_ID}`,
        ),
      { timeout: 3 * CARD_POLL_MS + 2000 },
    );
  }, 15_000);

  it('after a lost answer sends the same card order again (same key, terms and card)', async () => {
    let failures = 1;
    overrides.hub_buyDnNodeByCard = () => {
      if (failures-- > 0) throw lostAnswer('hub_buyDnNodeByCard');
      return settleOnServer(boughtByCard());
    };
    renderApp('/rpc/dedicated-node/new');
    await payByCard();
    expect(await screen.findByText(/charged at most once/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Wallet balance' })).toBeDisabled();
    await userEvent.click(await screen.findByRole('button', { name: 'Try paying $25.65 again' }));
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'search' })).toHaveTextContent(
        `?created=${CARD_NODE_ID}`,
      ),
    );
    const [first, second] = calls('hub_buyDnNodeByCard');
    expect(first).toMatchObject({ cardId: CARD.id, expectedCents: 2565 });
    expect(second).toEqual(first);
    expect(calls('hub_polling')).toHaveLength(0);
  });

  it('says a payment that could not buy the node went to the wallet, and offers the wallet', async () => {
    overrides.hub_buyDnNodeByCard = () =>
      makeCardOrder({ status: 'credited', ...SETTLED, failureCode: 'price_changed' });
    renderApp('/rpc/dedicated-node/new');
    await payByCard();
    expect(
      await progress().findByText(
        'Paid $25.65, but the node could not be ordered (its price or the catalogue changed); the amount is in your wallet, which can pay for it now.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Wallet balance' })).toBeChecked();
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent(
      '/rpc/dedicated-node/new',
    );
    // The price may have changed: the catalogue is read again.
    await waitFor(() => expect(calls('hub_getDnSku').length).toBeGreaterThan(1));
    await userEvent.click(screen.getByRole('button', { name: /Pay \$25\.65$/ }));
    await waitFor(() => expect(calls('hub_buyDnNodeByWallet')).toHaveLength(1));
    expect(calls('hub_buyDnNodeByWallet')[0]!.idempotencyKey).not.toBe(
      calls('hub_buyDnNodeByCard')[0]!.idempotencyKey,
    );
  });

  it('renews by card: the card order for the node, followed until paid', async () => {
    // An archive node: another name than the wallet renewal's, whose message may still be on screen.
    nodes = [
      makeNode(1, { nodeType: 'archive', status: 'will_expired', expiresAt: NOW + 2 * DAY }),
    ];
    polls = [makeCardOrder({ kind: 'dn_renew', nodeId: uuid(1), status: 'succeeded', ...SETTLED })];
    renderApp('/rpc/dedicated-node');
    await userEvent.click(
      (await rowOf('Ethereum')).getByRole('button', {
        name: 'Renew Ethereum Archive node · US East',
      }),
    );
    const dialog = within(await screen.findByRole('dialog'));
    expect(await dialog.findByRole('status', { name: 'Card payment' })).toBeEmptyDOMElement();
    await userEvent.click(await dialog.findByRole('radio', { name: 'Card' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Pay $1,199.00' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), {
      timeout: 3 * CARD_POLL_MS + 2000,
    });
    expect(calls('hub_renewDnNodeByCard')).toEqual([
      {
        nodeId: uuid(1),
        months: 1,
        idempotencyKey: expect.stringMatching(KEY),
        expectedCents: 119_900,
        cardId: CARD.id,
      },
    ]);
    expect(calls('hub_polling')).toEqual([{ orderId: uuid(600) }]);
    expect(calls('hub_renewDnNodeByWallet')).toHaveLength(0);
    expect(
      await screen.findByText('Ethereum Archive node · US East is renewed.'),
    ).toBeInTheDocument();
  }, 15_000);

  it.each([
    [
      'declined',
      makeCardOrder({
        kind: 'dn_renew',
        status: 'failed',
        ...SETTLED,
        failureCode: 'card_declined',
      }),
      'The payment did not go through: the card was declined. Nothing was charged.',
    ],
    [
      'credited',
      makeCardOrder({ kind: 'dn_renew', status: 'credited', ...SETTLED, failureCode: 'expired' }),
      'Paid $499.00, but the node could no longer be renewed; the amount is in your wallet.',
    ],
  ])('a renewal by card %s says so in the dialog', async (_name, settled, text) => {
    nodes = [makeNode(1)];
    overrides.hub_renewDnNodeByCard = (p: TParamsIn<'hub_renewDnNodeByCard'>) => ({
      ...settled,
      nodeId: p.nodeId,
      amountCents: p.expectedCents,
      amount: (p.expectedCents / 100).toFixed(2),
    });
    renderApp('/rpc/dedicated-node');
    await userEvent.click((await rowOf('Ethereum')).getByRole('button', { name: /^Renew/ }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.click(await dialog.findByRole('radio', { name: 'Card' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Pay $499.00' }));
    expect(
      await within(dialog.getByRole('status', { name: 'Card payment' })).findByText(text),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

describe('status history reasons', () => {
  /** Every reason code the server writes, in both languages (a new code fails to compile here until worded). */
  const REASON_TEXTS: Record<TDnEventReason, { en: string; zh: string }> = {
    ordered: { en: 'Ordered', zh: '已下单' },
    answering: { en: 'Set up and answering', zh: '部署完成并可响应' },
    expires_soon: {
      en: 'Expires within 3 days: renew it to keep it running',
      zh: '3 天内到期：请续费以保持运行',
    },
    term_ended: { en: 'Its paid period ended', zh: '付费期已结束' },
    renewed: { en: 'Renewed', zh: '已续费' },
    renewed_in_grace: {
      en: 'Renewed within the grace period: starting again',
      zh: '在宽限期内续费：重新启动',
    },
    data_deleted: { en: 'Grace period over: data deleted', zh: '宽限期已过：数据已删除' },
    restarted: {
      en: 'Its process had stopped and was started again',
      zh: '节点进程已停止，已重新启动',
    },
    stopped_by_operator: { en: 'Stopped by the operator', zh: '已被运营方停止' },
    started_by_operator: { en: 'Started again by the operator', zh: '已被运营方重新启动' },
  };

  it.each([
    [
      'en',
      '/rpc/dedicated-node',
      'Show status history of Ethereum Full node · US East',
      'Status history',
    ],
    ['zh', '/zh/rpc/dedicated-node', '展开 以太坊 全节点 · 美国东部 的状态历史', '状态历史'],
  ] as const)('words every reason code in %s', async (lang, path, show, title) => {
    await act(() => i18n.changeLanguage(lang));
    const at = new Date(2026, 0, 1, 9, 0).getTime();
    nodes = [
      makeNode(1, {
        status: 'stopped',
        history: DN_EVENT_REASONS.map((reason, i) => ({
          status: 'online',
          at: at + i * 60_000,
          reason,
        })),
      }),
    ];
    renderApp(path);
    await userEvent.click(await screen.findByRole('button', { name: show }));
    const history = within(await screen.findByRole('region', { name: title }));
    const reasons = history.getAllByRole('listitem').map((li) => li.lastElementChild?.textContent);
    expect(reasons).toEqual(DN_EVENT_REASONS.map((reason) => REASON_TEXTS[reason][lang]));
  });

  it('says a node stopped by the operator is stopped, and why its endpoints do not answer', async () => {
    nodes = [makeNode(1, { status: 'stopped' })];
    const view = renderApp('/rpc/dedicated-node');
    const row = await rowOf('Ethereum');
    expect(row.getByText('Stopped')).toBeInTheDocument();
    expect(
      row.getByText(
        'Stopped by the operator: the endpoints do not answer until it is started again.',
      ),
    ).toBeInTheDocument();
    view.unmount();

    await act(() => i18n.changeLanguage('zh'));
    renderApp('/zh/rpc/dedicated-node');
    const zhRow = await rowOf('以太坊');
    expect(zhRow.getByText('已停止')).toBeInTheDocument();
    expect(zhRow.getByText('已被运营方停止：重新启动前，端点不会响应。')).toBeInTheDocument();
  });
});

describe('a team role without the billing permission', () => {
  const TEAM = uuid(500);

  beforeEach(() => {
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
  });

  it('sees the nodes with Renew disabled, and why', async () => {
    nodes = [makeNode(1)];
    renderApp('/rpc/dedicated-node');
    const row = await rowOf('Ethereum');
    const renew = row.getByRole('button', { name: 'Renew Ethereum Full node · US East' });
    expect(renew).toBeDisabled();
    expect(renew).toHaveAccessibleDescription(/can see the nodes but not pay for them/);
    // Endpoints are for every role.
    expect(row.getByRole('button', { name: 'Copy HTTP URL' })).toBeEnabled();
  });

  it('can walk the wizard but not pay, and is told why', async () => {
    renderApp('/rpc/dedicated-node/new');
    await walkToReviewAsViewer();
    expect(
      screen.getByText(/cannot pay for nodes: ask an owner, admin or billing member/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay $25.65' })).toBeDisabled();
    // The card list is the billing permission's: never asked for.
    expect(calls('hub_getCreditCardList')).toHaveLength(0);
  });

  async function walkToReviewAsViewer() {
    for (const [heading, option] of [
      ['Step 1 of 5: Chain', /^Localnet/],
      ['Step 2 of 5: Node type', /^Archive node/],
      ['Step 3 of 5: Region', 'This server'],
      ['Step 4 of 5: Period', /^3 months/],
    ] as const) {
      expect(await screen.findByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
      await userEvent.click(screen.getByRole('radio', { name: option }));
      await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    }
    await screen.findByRole('heading', { level: 2, name: 'Step 5 of 5: Review and pay' });
  }
});

describe('in Chinese', () => {
  it('shows the list and the wizard in Chinese', async () => {
    await act(() => i18n.changeLanguage('zh'));
    nodes = nodesOfEveryStatus();
    const view = renderApp('/zh/rpc/dedicated-node');
    expect(await screen.findByRole('heading', { level: 1, name: '专用节点' })).toBeInTheDocument();
    const online = await rowOf('以太坊');
    expect(online.getByText('在线')).toBeInTheDocument();
    expect(online.getByText('全节点')).toBeInTheDocument();
    expect(online.getByRole('button', { name: '复制 HTTP URL' })).toBeInTheDocument();
    expect(online.getByRole('button', { name: '续费 以太坊 全节点 · 美国东部' })).toBeEnabled();
    const expiring = await rowOf('Base');
    expect(expiring.getByText('即将到期')).toBeInTheDocument();
    expect(expiring.getByText('3 天后')).toBeInTheDocument();
    expect((await rowOf('Polygon')).getByText('部署中')).toBeInTheDocument();
    expect((await rowOf('Gnosis')).getByText('已停止')).toBeInTheDocument();
    expect((await rowOf('Arbitrum')).getByText('已过期')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '新建专用节点' })).toHaveAttribute(
      'href',
      '/zh/rpc/dedicated-node/new',
    );
    view.unmount();

    renderApp('/zh/rpc/dedicated-node/new');
    expect(
      await screen.findByRole('heading', { level: 2, name: '第 1 步，共 5 步：链' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('radio', { name: /^本地测试链（Hardhat） · US\$5\.00 \/ 月起/ }),
    ).toBeEnabled();
    expect(screen.getByRole('radio', { name: /^以太坊 · 本服务暂不可用/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: '下一步' })).toBeDisabled();
  });
});
