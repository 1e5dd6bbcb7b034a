/**
 * The billing screens against a fake API: only callRpc (the network boundary) is replaced, and every fake
 * answer and every call's params are checked against the contract's schemas, so the fake cannot drift from it.
 */
import type {
  TCoin,
  TDeposit,
  TMethodName,
  TNotice,
  TPackage,
  TParamsIn,
  TPurchase,
  TQuote,
  TSku,
  TWalletOverview,
} from '@rpc/contract';
import {
  ERROR_CODES,
  METHODS,
  bucketStart,
  formatCents,
  localParts,
  resolveReportFrame,
} from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import type { ComponentType } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import { receiveNotice, resetNotices, useNotices } from '../../lib/notices';
import { useSession } from '../../lib/session';
import { makeUser } from '../../test/fixtures';
import type * as RpcClientModule from '../../lib/rpc-client';
import {
  RpcCallError,
  RpcCancelledError,
  TRANSPORT_ERROR_CODE,
  callRpc,
} from '../../lib/rpc-client';
import { PENDING_POLL_MS, getPendingDepositsQueryOptions } from './api/get-pending-deposits';
import { wireWallet } from './api/wire-wallet';
import { BillingChargePage } from './components/billing-charge-page';
import { BillingInvoicePage } from './components/billing-invoice-page';
import { BillingsPage } from './components/billings-page';
import { TopUpReminder } from './components/top-up-reminder';
import { formatMoney, formatTokenUnits, parseUsdToCents, sumCents } from './utils/money';
import { isOutcomeUnknown } from '../../lib/payment-attempt';
import { spendByMonth, spendRange } from './utils/spend';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);

// --- Fake data ---

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const JAN_2026 = new Date(2026, 0, 15, 10, 30).getTime();
const EXPIRES = new Date(2026, 1, 14, 10, 30).getTime();

function makePackage(patch: Partial<TPackage> = {}): TPackage {
  return {
    id: uuid(1),
    skuId: 'growth',
    type: 'standard',
    name: { en: 'Growth', zh: '成长版' },
    status: 'active',
    tier: 'growth',
    ruTotal: 2_000_000,
    ruUsed: 500_000,
    ruLeft: 1_500_000,
    startsAt: JAN_2026,
    expiresAt: EXPIRES,
    autoRenew: false,
    renewChannel: 'wallet',
    createdAt: JAN_2026,
    ...patch,
  };
}

function makeWallet(patch: Partial<TWalletOverview> = {}): TWalletOverview {
  return {
    currency: 'USD',
    amount: '12.34',
    amountCents: 1234,
    arrears: '0.00',
    arrearsCents: 0,
    ruLeft: 1_500_000,
    tier: 'growth',
    isPaygActive: false,
    packages: [makePackage()],
    ...patch,
  };
}

function sku(patch: Partial<TSku> & Pick<TSku, 'id' | 'type'>): TSku {
  return {
    name: { en: patch.id, zh: patch.id },
    description: { en: `About ${patch.id}`, zh: `关于 ${patch.id}` },
    ru: 0,
    priceCents: 0,
    validityDays: 30,
    tier: 'free',
    paygCentsPerMillionRu: null,
    arrearsLimitCents: null,
    isMonthlyFree: false,
    isPurchasable: true,
    canAutoRenew: false,
    ...patch,
  };
}

const SKUS: TSku[] = [
  sku({
    id: 'free-monthly',
    type: 'free',
    name: { en: 'Monthly free', zh: '每月免费' },
    ru: 1_000_000,
    isMonthlyFree: true,
    isPurchasable: false,
  }),
  sku({
    id: 'growth',
    type: 'standard',
    name: { en: 'Growth', zh: '成长版' },
    ru: 10_000_000,
    priceCents: 4900,
    tier: 'growth',
    canAutoRenew: true,
  }),
  sku({
    id: 'payg',
    type: 'default',
    name: { en: 'Pay as you go', zh: '按量付费' },
    paygCentsPerMillionRu: 150,
    arrearsLimitCents: 1000,
    tier: 'growth',
  }),
  sku({
    id: 'enterprise',
    type: 'enterprise',
    name: { en: 'Enterprise', zh: '企业版' },
    isPurchasable: false,
  }),
];

function makeQuote(patch: Partial<TQuote> = {}): TQuote {
  return {
    skuId: 'growth',
    skuVersion: 'v1',
    isFirstPurchase: true,
    priceCents: 4900,
    discountCents: 0,
    payCents: 4900,
    walletCents: 10_000,
    walletAfterCents: 5100,
    canPay: true,
    tierBefore: 'free',
    tierAfter: 'growth',
    expiresAt: EXPIRES,
    discountCode: null,
    ...patch,
  };
}

function makePurchase(i: number, patch: Partial<TPurchase> = {}): TPurchase {
  return {
    id: `p${i}`,
    skuId: 'growth',
    skuName: { en: `Growth #${i}`, zh: `成长版 #${i}` },
    packageType: i % 3 === 0 ? 'default' : 'standard',
    channel: i % 2 === 0 ? 'card' : 'crypto',
    reason: 'purchase',
    priceCents: 4900,
    discountCents: 0,
    paidCents: 4900,
    ru: 10_000_000,
    packageId: uuid(100 + i),
    createdAt: JAN_2026 + i * 86_400_000,
    ...patch,
  };
}

const COINS: TCoin[] = [
  {
    coin: 'USDT',
    name: 'Tether USD',
    chain: 'localnet',
    chainName: 'Localnet',
    contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    decimals: 6,
    confirmations: 3,
    minDeposit: '10000000',
    usdCentsPerCoin: 100,
  },
  {
    coin: 'ETH',
    name: 'Ether',
    chain: 'localnet',
    chainName: 'Localnet',
    contract: null,
    decimals: 18,
    confirmations: 3,
    minDeposit: '1000000000000000',
    usdCentsPerCoin: 300_000,
  },
];

const ADDRESS = '0x1111222233334444555566667777888899990000';
const TX = `0x${'ab'.repeat(32)}`;

function makeDeposit(patch: Partial<TDeposit> = {}): TDeposit {
  return {
    id: uuid(500),
    chain: 'localnet',
    coin: 'USDT',
    txHash: TX,
    logIndex: 0,
    fromAddress: null,
    toAddress: ADDRESS,
    amount: '25000000',
    coinAmount: '25',
    usdCents: 2500,
    status: 'pending',
    confirmations: 1,
    requiredConfirmations: 3,
    blockNumber: 10,
    createdAt: JAN_2026,
    creditedAt: null,
    channel: 'crypto',
    ...patch,
  };
}

// --- The fake server ---

let purchases: TPurchase[] = [];
let pending: TDeposit[] = [];
let wallet: TWalletOverview;
type THandler = (params: never) => unknown;
let overrides: Partial<Record<TMethodName, THandler>> = {};

function paged<T>(list: T[], p: { page?: number; perPage?: number }) {
  const page = p.page ?? 1;
  const perPage = p.perPage ?? 5;
  return {
    list: list.slice((page - 1) * perPage, page * perPage),
    total: list.length,
    page,
    perPage,
  };
}

const handlers: Partial<Record<TMethodName, THandler>> = {
  hub_getUserWalletOverview: () => wallet,
  hub_getSkuList: () => ({ version: 'v1', currency: 'USD', list: SKUS }),
  hub_getUserDiscountCodeDetail: () => null,
  // Card payments are not configured here (cards.test.tsx covers them).
  hub_getConfig: () => ({
    version: 'test',
    gatewayHttpUrlTemplate: 'http://localhost:3001/v1/{chain}/{key}',
    gatewayWsUrlTemplate: 'ws://localhost:3001/v1/{chain}/{key}',
    registrationOpen: true,
    supportEmail: 'support@example.com',
    stripePublishableKey: null,
    oauthProviders: [],
    siweDomain: 'localhost',
  }),
  hub_getCreditCardList: () => ({ isConfigured: false, list: [] }),
  hub_getSubscriptions: () => ({ list: [] }),
  hub_getSpendLimits: () => ({
    monthlyRuCap: null,
    monthlyCentsCap: null,
    action: 'alert',
    alertPercents: [],
    month: { key: '2026-01', ruUsed: 0, centsSpent: 0 },
    blockedUntil: null,
  }),
  hub_skuFirstConfirm: (p: TParamsIn<'hub_skuFirstConfirm'>) => makeQuote({ skuId: p.skuId }),
  hub_buyPackage: (p: TParamsIn<'hub_buyPackage'>) => ({
    purchase: makePurchase(99, { skuId: p.skuId }),
    package: makePackage({ id: uuid(99), autoRenew: p.autoRenew ?? false }),
    wallet: makeWallet({ amount: '51.00', amountCents: 5100 }),
  }),
  hub_getFreeSkuBuyFreeType: (p: TParamsIn<'hub_getFreeSkuBuyFreeType'>) => ({
    claimed: true,
    package: makePackage({
      id: uuid(7),
      skuId: p.skuId,
      type: 'free',
      ruTotal: 1_000_000,
      ruUsed: 0,
      ruLeft: 1_000_000,
    }),
    nextClaimAt: EXPIRES,
  }),
  hub_getEnterpriseInfo: () => ({
    contactEmail: 'sales@example.com',
    features: [{ en: 'Dedicated support', zh: '专属支持' }],
    packages: [],
  }),
  hub_setUserAutoRenew: (p: TParamsIn<'hub_setUserAutoRenew'>) =>
    makePackage({ id: p.packageId, autoRenew: p.autoRenew }),
  hub_getViewUserPurchaseInfo: (p: TParamsIn<'hub_getViewUserPurchaseInfo'>) => {
    const found = purchases
      .filter((x) => !p.channel || p.channel === 'all' || x.channel === p.channel)
      .filter((x) => !p.packageType || p.packageType === 'all' || x.packageType === p.packageType)
      .sort((a, b) => (p.sort === 'asc' ? a.createdAt - b.createdAt : b.createdAt - a.createdAt));
    return paged(found, p);
  },
  hub_getViewUsedInfo: (p: TParamsIn<'hub_getViewUsedInfo'>) => paged([makePackage()], p),
  // The spend chart's report, from the fake purchases: the frame as the server aligns it, paid cents per bucket.
  hub_reportUserPurchase: (p: TParamsIn<'hub_reportUserPurchase'>) => {
    const timeZone = p.timeZone ?? 'UTC';
    const check = resolveReportFrame({ ...p, timeZone }, Date.now(), 14);
    if (!check.ok) throw new Error(`bad report range: ${check.problem}`);
    const { frame } = check;
    const data = frame.buckets.map(() => 0);
    for (const x of purchases) {
      const i = frame.buckets.indexOf(bucketStart(x.createdAt, frame.bucket, timeZone));
      if (i >= 0) data[i]! += x.paidCents;
    }
    const totalCents = data.reduce((a, b) => a + b, 0);
    return {
      ...frame,
      series: [{ id: 'total', name: 'Total', data }],
      totalCents,
      count: purchases.length,
    };
  },
  hub_getWalletDeposit: (p: TParamsIn<'hub_getWalletDeposit'>) =>
    paged([makeDeposit({ status: 'confirmed', confirmations: 3, creditedAt: JAN_2026 })], p),
  hub_getWalletCoinList: () => ({ list: COINS }),
  hub_getDepositAddress: (p: TParamsIn<'hub_getDepositAddress'>) => ({
    chain: p.chain,
    address: ADDRESS,
    coins: ['USDT', 'ETH'],
  }),
  hub_getWalletDepositPending: () => ({ list: pending }),
  hub_delWalletDepositPending: (p: TParamsIn<'hub_delWalletDepositPending'>) => {
    pending = pending.filter((d) => d.id !== p.id);
    return { success: true };
  },
};

function calls<N extends TMethodName>(method: N) {
  return rpc.mock.calls.filter(([name]) => name === method).map(([, p]) => p as TParamsIn<N>);
}

/** The history table's calls (perPage 100 would be another reader's: the spend chart reads its report). */
function tableCalls() {
  return calls('hub_getViewUserPurchaseInfo').filter((p) => p.perPage !== 100);
}

function renderAt(path: string, Page: ComponentType) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  function Where() {
    return <output aria-label="location">{useLocation().pathname}</output>;
  }
  const view = render(
    <QueryClientProvider client={queryClient}>
      {/* as the app's providers: no space squeezed into two-character Chinese button names */}
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="*" element={<Page />} />
          </Routes>
          <Where />
        </MemoryRouter>
      </ConfigProvider>
    </QueryClientProvider>,
  );
  return { ...view, queryClient };
}

/** Picks an option of the open antd select by its text. */
async function clickOption(option: string) {
  const items = await screen.findAllByTitle(option);
  const item = items.filter((el) => el.classList.contains('ant-select-item-option')).at(-1);
  if (!item) throw new Error(`no option ${option}`);
  await userEvent.click(item);
}

/** Opens a labelled antd select and picks an option by its text. */
async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  const items = await screen.findAllByTitle(option);
  const item = items.filter((el) => el.classList.contains('ant-select-item-option')).at(-1);
  if (!item) throw new Error(`no option ${option}`);
  await userEvent.click(item);
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  purchases = Array.from({ length: 12 }, (_, i) => makePurchase(i + 1));
  pending = [makeDeposit()];
  wallet = makeWallet();
  overrides = {};
  rpc.mockReset();
  rpc.mockImplementation(async (method, params) => {
    const def = METHODS[method];
    // The web app's params must be what the server accepts.
    def.params.parse(params);
    const handler = overrides[method] ?? handlers[method];
    if (!handler) throw new Error(`unexpected call ${method}`);
    const answer = await handler(params as never);
    return def.result.parse(answer) as never;
  });
  resetNotices();
  await act(() => i18n.changeLanguage('en'));
});

afterEach(() => {
  vi.useRealTimers();
});

describe('billing links', () => {
  it.each([
    ['/rpc/billings', BillingsPage, 'Top up', '/rpc/billings/charge'],
    ['/rpc/billings', BillingsPage, 'Invoices', '/rpc/billings/invoice'],
    ['/rpc/billings/charge', BillingChargePage, 'Back to billing', '/rpc/billings'],
    ['/rpc/billings/invoice', BillingInvoicePage, 'Back to billing', '/rpc/billings'],
  ] as const)('%s links "%s" to %s', async (path, Page, name, target) => {
    renderAt(path, Page);
    const link = screen.getByRole('link', { name });
    expect(link).toHaveAttribute('href', target);
    await userEvent.click(link);
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent(target);
  });

  it('keeps the /zh prefix', async () => {
    await act(() => i18n.changeLanguage('zh'));
    renderAt('/zh/rpc/billings', BillingsPage);
    expect(screen.getByRole('link', { name: '充值' })).toHaveAttribute(
      'href',
      '/zh/rpc/billings/charge',
    );
    expect(screen.getByRole('link', { name: '发票' })).toHaveAttribute(
      'href',
      '/zh/rpc/billings/invoice',
    );
  });
});

describe('/rpc/billings wallet overview', () => {
  it('shows a loading state, then balance, arrears, RUs, tier, pay-as-you-go and the active packages', async () => {
    renderAt('/rpc/billings', BillingsPage);
    expect(screen.getByRole('status', { name: 'Loading your wallet…' })).toBeInTheDocument();
    const card = within(await screen.findByRole('region', { name: 'Wallet' }));
    expect(await card.findByText('$12.34')).toBeInTheDocument();
    expect(card.getByText('$0.00')).toBeInTheDocument();
    expect(card.getByText('1,500,000')).toBeInTheDocument();
    expect(card.getByText('Off')).toBeInTheDocument();
    const packages = within(card.getByRole('region', { name: /Active packages/ }));
    expect(packages.getByText('1,500,000 of 2,000,000')).toBeInTheDocument();
    expect(packages.getByText('2026-02-14 10:30')).toBeInTheDocument();
    expect(packages.getByRole('switch', { name: 'Auto-renew Growth' })).not.toBeChecked();
    // no arrears: no prompt to settle them
    expect(card.queryByRole('link', { name: 'Deposit' })).not.toBeInTheDocument();
  });

  it('warns about arrears with a way to deposit', async () => {
    wallet = makeWallet({ amount: '0.00', amountCents: 0, arrears: '3.50', arrearsCents: 350 });
    renderAt('/rpc/billings', BillingsPage);
    expect(await screen.findByText(/owes \$3\.50 beyond your balance/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Deposit' })).toHaveAttribute(
      'href',
      '/rpc/billings/charge',
    );
  });

  it('shows an error with a retry when the wallet cannot be loaded', async () => {
    overrides.hub_getUserWalletOverview = () => {
      throw new RpcCallError('hub_getUserWalletOverview', {
        code: 10500,
        message: 'Internal error',
        messageZh: '内部错误',
      });
    };
    renderAt('/rpc/billings', BillingsPage);
    expect(await screen.findByText('Your wallet could not be loaded.')).toBeInTheDocument();
    delete overrides.hub_getUserWalletOverview;
    const wallet = within(screen.getByRole('region', { name: 'Wallet' }));
    await userEvent.click(wallet.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('$12.34')).toBeInTheDocument();
  });

  it('asks before turning auto-renew on for a package', async () => {
    renderAt('/rpc/billings', BillingsPage);
    await userEvent.click(await screen.findByRole('switch', { name: 'Auto-renew Growth' }));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('Renew Growth automatically?')).toBeInTheDocument();
    expect(calls('hub_setUserAutoRenew')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Turn on' }));
    await waitFor(() =>
      expect(calls('hub_setUserAutoRenew')).toEqual([{ packageId: uuid(1), autoRenew: true }]),
    );
  });
});

describe('/rpc/billings buying a package', () => {
  it('lists the SKUs: free claim, packages, pay-as-you-go and enterprise contact', async () => {
    renderAt('/rpc/billings', BillingsPage);
    const buy = within(await screen.findByRole('region', { name: 'Buy a package' }));
    expect(await buy.findByRole('button', { name: 'Buy Growth' })).toBeInTheDocument();
    expect(buy.getByText('$49.00')).toBeInTheDocument();
    expect(buy.getByText('10,000,000 RUs')).toBeInTheDocument();
    expect(buy.getByText('$1.50 per million RUs')).toBeInTheDocument();
    expect(buy.getByText('May run up to $10.00 into arrears')).toBeInTheDocument();

    await userEvent.click(buy.getByRole('button', { name: 'Contact sales about Enterprise' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enterprise packages' });
    expect(await within(dialog).findByRole('link', { name: 'sales@example.com' })).toHaveAttribute(
      'href',
      'mailto:sales@example.com',
    );
  });

  it('claims the monthly free RUs', async () => {
    renderAt('/rpc/billings', BillingsPage);
    await userEvent.click(
      await screen.findByRole('button', { name: "Claim this month's free RUs" }),
    );
    await waitFor(() =>
      expect(calls('hub_getFreeSkuBuyFreeType')).toEqual([{ skuId: 'free-monthly' }]),
    );
    expect(
      await screen.findByText('1,000,000 free RUs added to your account.'),
    ).toBeInTheDocument();
  });

  it('confirms first (price, wallet after, tier change), then buys once with one key and the confirmed price', async () => {
    renderAt('/rpc/billings', BillingsPage);
    await userEvent.click(await screen.findByRole('button', { name: 'Buy Growth' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Confirm purchase: Growth' }));
    expect(await dialog.findByText('$51.00')).toBeInTheDocument();
    expect(dialog.getByText('$100.00')).toBeInTheDocument();
    expect(dialog.getByText('Free → growth')).toBeInTheDocument();
    expect(dialog.getByText('2026-02-14 10:30')).toBeInTheDocument();
    expect(calls('hub_buyPackage')).toHaveLength(0);

    await userEvent.click(
      dialog.getByRole('switch', {
        name: 'Renew automatically from the wallet when it runs out or expires',
      }),
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Pay $49.00' }));
    await waitFor(() => expect(calls('hub_buyPackage')).toHaveLength(1));
    const [bought] = calls('hub_buyPackage');
    expect(bought).toEqual({
      skuId: 'growth',
      idempotencyKey: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
      autoRenew: true,
      useDiscount: true,
      expectedPayCents: 4900,
    });
    const order = rpc.mock.calls.map(([name]) => name);
    expect(order.indexOf('hub_skuFirstConfirm')).toBeLessThan(order.indexOf('hub_buyPackage'));
    expect(calls('hub_skuFirstConfirm')).toEqual([{ skuId: 'growth', useDiscount: true }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      await screen.findByText('Growth is yours. Its RUs are ready to use.'),
    ).toBeInTheDocument();
  });

  it('after a lost answer, paying again sends the same key; a new attempt gets a new key', async () => {
    let failures = 1;
    overrides.hub_buyPackage = (p: TParamsIn<'hub_buyPackage'>) => {
      if (failures-- > 0) {
        throw new RpcCallError('hub_buyPackage', {
          code: TRANSPORT_ERROR_CODE,
          message: 'Network Error',
          messageZh: '网络错误',
        });
      }
      return handlers.hub_buyPackage!(p as never);
    };
    renderAt('/rpc/billings', BillingsPage);
    await userEvent.click(await screen.findByRole('button', { name: 'Buy Growth' }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.click(await dialog.findByRole('button', { name: 'Pay $49.00' }));
    expect(await dialog.findByText(/charged at most once/)).toBeInTheDocument();
    // the terms of the attempt are locked while its outcome is unknown
    expect(dialog.getByRole('switch')).toBeDisabled();
    await userEvent.click(dialog.getByRole('button', { name: 'Try paying $49.00 again' }));
    await waitFor(() => expect(calls('hub_buyPackage')).toHaveLength(2));
    const [first, second] = calls('hub_buyPackage');
    expect(second!.idempotencyKey).toBe(first!.idempotencyKey);
    expect(second).toEqual(first);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // Another purchase is another attempt.
    await userEvent.click(screen.getByRole('button', { name: 'Buy Growth' }));
    const again = within(await screen.findByRole('dialog'));
    await userEvent.click(await again.findByRole('button', { name: 'Pay $49.00' }));
    await waitFor(() => expect(calls('hub_buyPackage')).toHaveLength(3));
    expect(calls('hub_buyPackage')[2]!.idempotencyKey).not.toBe(first!.idempotencyKey);
  });

  it('after a refusal (price changed) asks for the new price and pays it with a new key', async () => {
    let price = 4900;
    overrides.hub_skuFirstConfirm = () => makeQuote({ payCents: price, priceCents: price });
    overrides.hub_buyPackage = (p: TParamsIn<'hub_buyPackage'>) => {
      if (p.expectedPayCents !== price) {
        throw new RpcCallError('hub_buyPackage', {
          code: ERROR_CODES.PRICE_CHANGED,
          message: 'The price changed',
          messageZh: '价格已变更',
        });
      }
      return handlers.hub_buyPackage!(p as never);
    };
    renderAt('/rpc/billings', BillingsPage);
    await userEvent.click(await screen.findByRole('button', { name: 'Buy Growth' }));
    const dialog = within(await screen.findByRole('dialog'));
    await dialog.findByRole('button', { name: 'Pay $49.00' });
    price = 5900;
    await userEvent.click(dialog.getByRole('button', { name: 'Pay $49.00' }));
    await userEvent.click(await dialog.findByRole('button', { name: 'Pay $59.00' }));
    await waitFor(() => expect(calls('hub_buyPackage')).toHaveLength(2));
    const [first, second] = calls('hub_buyPackage');
    expect(first!.expectedPayCents).toBe(4900);
    expect(second!.expectedPayCents).toBe(5900);
    expect(second!.idempotencyKey).not.toBe(first!.idempotencyKey);
  });

  it('with too little balance says so, links to the deposit page and does not pay', async () => {
    overrides.hub_skuFirstConfirm = () =>
      makeQuote({ walletCents: 1000, walletAfterCents: -3900, canPay: false });
    renderAt('/rpc/billings', BillingsPage);
    await userEvent.click(await screen.findByRole('button', { name: 'Buy Growth' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(
      await dialog.findByText('Your balance is not enough for this package: $39.00 is missing.'),
    ).toBeInTheDocument();
    expect(dialog.getByRole('link', { name: 'Go to deposit' })).toHaveAttribute(
      'href',
      '/rpc/billings/charge',
    );
    expect(dialog.getByRole('button', { name: 'Pay $49.00' })).toBeDisabled();
    await userEvent.click(dialog.getByRole('link', { name: 'Go to deposit' }));
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent(
      '/rpc/billings/charge',
    );
    expect(calls('hub_buyPackage')).toHaveLength(0);
  });

  it('checks a discount code before sending it, then attaches it', async () => {
    overrides.hub_setUserDiscountCode = (p: TParamsIn<'hub_setUserDiscountCode'>) => ({
      code: p.code.toUpperCase(),
      percentOff: 20,
      skuIds: [],
      expiresAt: null,
      usedAt: null,
    });
    renderAt('/rpc/billings', BillingsPage);
    const field = await screen.findByLabelText('Code');
    await userEvent.type(field, 'no');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(
      await screen.findByText('A code is 4 to 32 letters, digits or dashes.'),
    ).toBeInTheDocument();
    expect(calls('hub_setUserDiscountCode')).toHaveLength(0);
    await userEvent.clear(field);
    await userEvent.type(field, 'save-20');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(calls('hub_setUserDiscountCode')).toEqual([{ code: 'SAVE-20' }]));
  });
});

describe('/rpc/billings histories', () => {
  it('pages the purchases per SPEC §9 (5 a page, 5/10/15/20) with the server', async () => {
    renderAt('/rpc/billings', BillingsPage);
    expect(await screen.findByText('Growth #12')).toBeInTheDocument();
    expect(tableCalls()).toEqual([
      { page: 1, perPage: 5, sort: 'desc', channel: 'all', packageType: 'all' },
    ]);
    expect(screen.getByText('12 purchases')).toBeInTheDocument();
    const table = within(screen.getByRole('region', { name: 'Purchases' }));
    expect(table.getAllByRole('row')).toHaveLength(6);

    await userEvent.click(screen.getByTitle('3'));
    expect(await screen.findByText('Growth #2')).toBeInTheDocument();
    expect(tableCalls().at(-1)).toMatchObject({ page: 3, perPage: 5 });

    await userEvent.click(screen.getByRole('combobox', { name: /page size/i }));
    const sizes = screen
      .getAllByRole('option')
      .filter((el) => el.classList.contains('ant-select-item-option'))
      .map((el) => el.getAttribute('title'));
    expect(sizes).toEqual(['5 / page', '10 / page', '15 / page', '20 / page']);
    await clickOption('10 / page');
    await waitFor(() => expect(tableCalls().at(-1)).toMatchObject({ page: 1, perPage: 10 }));
  });

  it('filters purchases by channel, package type and order, back on page 1', async () => {
    renderAt('/rpc/billings', BillingsPage);
    await screen.findByText('Growth #12');
    await userEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(tableCalls().at(-1)).toMatchObject({ page: 2 }));

    await choose('Payment channel', 'Card');
    await waitFor(() =>
      expect(tableCalls().at(-1)).toEqual({
        page: 1,
        perPage: 5,
        sort: 'desc',
        channel: 'card',
        packageType: 'all',
      }),
    );
    await choose('Package type', 'Pay As You Go');
    await waitFor(() =>
      expect(tableCalls().at(-1)).toMatchObject({ channel: 'card', packageType: 'default' }),
    );
    // 6 and 12 are card and pay-as-you-go
    expect(await screen.findByText('2 purchases')).toBeInTheDocument();
    await choose('Order', 'Oldest first');
    await waitFor(() => expect(tableCalls().at(-1)).toMatchObject({ sort: 'asc' }));
    for (const option of ['All types', 'Additional Package', 'Free', 'Enterprise']) {
      expect(screen.getAllByTitle(option).length).toBeGreaterThan(0);
    }
  });

  it('exports the purchases with the table’s filters, shows progress, then the download link', async () => {
    const EXPORT_ID = '00000000-0000-4000-8000-000000000e01';
    let polls = 0;
    overrides.hub_getViewUserPurchaseInfoCsv = () => ({
      exportId: EXPORT_ID,
      kind: 'purchase',
      status: 'queued',
      createdAt: JAN_2026,
    });
    overrides.hub_getExportStatus = () =>
      ++polls < 2
        ? { exportId: EXPORT_ID, kind: 'purchase', status: 'running', createdAt: JAN_2026 }
        : {
            exportId: EXPORT_ID,
            kind: 'purchase',
            status: 'done',
            fileName: 'purchases.csv',
            downloadUrl: `/exports/${EXPORT_ID}/download?token=t`,
            rows: 12,
            createdAt: JAN_2026,
          };
    renderAt('/rpc/billings', BillingsPage);
    await screen.findByText('Growth #12');
    await choose('Payment channel', 'Card');
    await userEvent.click(screen.getAllByRole('button', { name: 'Export CSV' })[0]!);
    expect(calls('hub_getViewUserPurchaseInfoCsv')).toEqual([
      { channel: 'card', packageType: 'all', sort: 'desc', language: 'en' },
    ]);
    expect(await screen.findByText(/Preparing/)).toBeInTheDocument();
    const link = await screen.findByRole(
      'link',
      { name: 'Download purchases.csv (12 rows)' },
      { timeout: 8000 },
    );
    expect(link).toHaveAttribute('href', `/exports/${EXPORT_ID}/download?token=t`);
  }, 15_000);

  it('shows packages used and deposits in their tabs', async () => {
    renderAt('/rpc/billings', BillingsPage);
    await userEvent.click(await screen.findByRole('tab', { name: 'Packages used' }));
    const used = within(await screen.findByRole('region', { name: 'Packages used' }));
    expect(await used.findByText('500,000')).toBeInTheDocument();
    expect(calls('hub_getViewUsedInfo')).toEqual([
      { page: 1, perPage: 5, sort: 'desc', packageType: 'all', status: 'all' },
    ]);
    await userEvent.click(screen.getByRole('tab', { name: 'Deposits' }));
    const deposits = within(await screen.findByRole('region', { name: 'Deposits' }));
    expect(await deposits.findByText('25 USDT')).toBeInTheDocument();
    expect(deposits.getByText('Credited')).toBeInTheDocument();
    expect(deposits.getByTitle(TX)).toHaveTextContent('0xababab…ababab');
  });

  it('draws the spend per month as an image with a text summary', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 1));
    purchases = Array.from({ length: 12 }, (_, i) =>
      makePurchase(i + 1, { createdAt: new Date(2026, i < 10 ? 0 : 1, 10).getTime() }),
    );
    renderAt('/rpc/billings', BillingsPage);
    const chart = await screen.findByRole('img', { name: /spend per month/ });
    expect(chart).toHaveAccessibleDescription(
      '$588.00 spent in the last 12 months; most in 2026-01 ($490.00).',
    );
    // One report call by local day from the first of April 2025, not a page of purchases.
    expect(calls('hub_reportUserPurchase')).toEqual([
      {
        from: new Date(2025, 3, 1).getTime(),
        to: new Date(2026, 2, 2).getTime(),
        bucket: 'day',
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
    ]);
    expect(calls('hub_getViewUserPurchaseInfo').filter((p) => p.perPage === 100)).toEqual([]);
  });

  it('says so when nothing was spent in the last 12 months', async () => {
    purchases = [makePurchase(1, { createdAt: new Date(2020, 0, 1).getTime() })];
    renderAt('/rpc/billings', BillingsPage);
    expect(await screen.findByText('Nothing spent in the last 12 months.')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /spend per month/ })).not.toBeInTheDocument();
  });
});

describe('SPEC §4 deposit notice', () => {
  it('refreshes the wallet and the deposit list on screen', async () => {
    const { queryClient } = renderAt('/rpc/billings', BillingsPage);
    const unwire = wireWallet(queryClient);
    try {
      await screen.findByText('$12.34');
      await userEvent.click(screen.getByRole('tab', { name: 'Deposits' }));
      await screen.findByText('25 USDT');
      const overviewCalls = calls('hub_getUserWalletOverview').length;
      const depositCalls = calls('hub_getWalletDeposit').length;
      wallet = makeWallet({ amount: '37.34', amountCents: 3734 });
      const notice: TNotice = {
        id: 'n1',
        type: 'deposit',
        title: 'Deposit',
        content: '',
        createdAt: Date.now(),
        read: false,
        teamId: null,
        expand: { coin: 'USDT', coinAmount: '25' },
      };
      await act(() => receiveNotice(notice, () => {}));
      expect(await screen.findByText('$37.34')).toBeInTheDocument();
      expect(calls('hub_getUserWalletOverview').length).toBeGreaterThan(overviewCalls);
      await waitFor(() =>
        expect(calls('hub_getWalletDeposit').length).toBeGreaterThan(depositCalls),
      );
      await waitFor(() => expect(useNotices.getState().isDepositListStale).toBe(false));
    } finally {
      unwire();
    }
  });
});

describe('/rpc/billings/charge deposit', () => {
  it('shows the address as text and QR code with copy, minimum and confirmations per coin', async () => {
    renderAt('/rpc/billings/charge', BillingChargePage);
    expect(await screen.findByText(ADDRESS)).toBeInTheDocument();
    expect(calls('hub_getDepositAddress')).toEqual([{ chain: 'localnet' }]);
    const qr = screen.getByRole('img', {
      name: 'QR code of your USDT deposit address on Localnet',
    });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.querySelectorAll('path').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Copy address' })).toBeInTheDocument();
    expect(
      screen.getByText('Minimum deposit: 10 USDT. Smaller amounts are not credited.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Credited after 3 confirmations.')).toBeInTheDocument();
    expect(screen.getByText('1 USDT is credited as $1.00.')).toBeInTheDocument();
    expect(await screen.findByText('Wallet balance: $12.34.')).toBeInTheDocument();

    await choose('Coin', 'ETH · Ether');
    expect(
      await screen.findByText('Minimum deposit: 0.001 ETH. Smaller amounts are not credited.'),
    ).toBeInTheDocument();
    expect(screen.getByText('1 ETH is credited as $3,000.00.')).toBeInTheDocument();
  });

  it('copies the address', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAt('/rpc/billings/charge', BillingChargePage);
    await userEvent.click(await screen.findByRole('button', { name: 'Copy address' }));
    expect(writeText).toHaveBeenCalledWith(ADDRESS);
    expect(await screen.findByText('Copied to the clipboard.')).toBeInTheDocument();
  });

  it.each([
    ['an empty coin list', () => ({ list: [] })],
    [
      '10707',
      () => {
        throw new RpcCallError('hub_getWalletCoinList', {
          code: ERROR_CODES.DEPOSITS_NOT_CONFIGURED,
          message: 'Crypto deposits are not configured.',
          messageZh: '尚未配置加密货币充值。',
        });
      },
    ],
  ])('says deposits are not set up for %s', async (_name, handler) => {
    overrides.hub_getWalletCoinList = handler;
    renderAt('/rpc/billings/charge', BillingChargePage);
    expect(
      await screen.findByText('Crypto deposits are not set up on this console yet.'),
    ).toBeInTheDocument();
    expect(calls('hub_getDepositAddress')).toHaveLength(0);
    expect(calls('hub_getWalletDepositPending')).toHaveLength(0);
  });

  it('lists pending deposits and asks before hiding one', async () => {
    renderAt('/rpc/billings/charge', BillingChargePage);
    const region = within(await screen.findByRole('region', { name: 'Pending deposits' }));
    expect(await region.findByText('1 of 3')).toBeInTheDocument();
    expect(region.getByText(/every 10 seconds/)).toBeInTheDocument();
    await userEvent.click(region.getByRole('button', { name: 'Hide deposit 0xababab…ababab' }));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText(/still credited/)).toBeInTheDocument();
    expect(calls('hub_delWalletDepositPending')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Hide' }));
    await waitFor(() => expect(calls('hub_delWalletDepositPending')).toEqual([{ id: uuid(500) }]));
    expect(await screen.findByText('No deposits waiting for confirmations.')).toBeInTheDocument();
  });

  it('polls pending deposits only while some are waiting', () => {
    const options = getPendingDepositsQueryOptions('user:a1');
    const interval = options.refetchInterval as (query: unknown) => number | false;
    const withList = (list: TDeposit[]) => ({ state: { data: { list } } });
    expect(interval(withList([makeDeposit()]))).toBe(PENDING_POLL_MS);
    expect(interval(withList([]))).toBe(false);
    expect(interval({ state: { data: undefined } })).toBe(false);
  });
});

describe('billing in Chinese', () => {
  it('names the sections, filters and amounts in Chinese', async () => {
    await act(() => i18n.changeLanguage('zh'));
    renderAt('/zh/rpc/billings', BillingsPage);
    const money = (cents: number) =>
      new Intl.NumberFormat('zh-CN', { style: 'currency', currency: 'USD' }).format(
        formatCents(cents) as `${number}`,
      );
    const card = within(await screen.findByRole('region', { name: '钱包' }));
    expect(await card.findByText(money(1234))).toBeInTheDocument();
    expect(card.getByText('余额')).toBeInTheDocument();
    expect(card.getByText('1,500,000 / 2,000,000')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: '购买套餐' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: '购买 成长版' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: '支付渠道' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: '套餐类型' })).toBeInTheDocument();
    expect(await screen.findByText('共 12 笔购买')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '充值记录' })).toBeInTheDocument();
  });

  it('shows the deposit page in Chinese', async () => {
    await act(() => i18n.changeLanguage('zh'));
    renderAt('/zh/rpc/billings/charge', BillingChargePage);
    expect(
      await screen.findByRole('img', { name: '您在 Localnet 上的 USDT 充值地址二维码' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '复制地址' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: '网络' })).toBeInTheDocument();
  });
});

describe('billing utils', () => {
  it('formats cents per language without float arithmetic', () => {
    expect(formatMoney(123_456, 'en')).toBe('$1,234.56');
    expect(formatMoney(-5, 'en')).toBe('-$0.05');
    // 2^53 - 1 cents still prints every digit
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'en')).toBe('$90,071,992,547,409.91');
    expect(formatMoney(1234, 'zh')).toBe(
      new Intl.NumberFormat('zh-CN', { style: 'currency', currency: 'USD' }).format(12.34),
    );
  });

  it('parses the wallet strings to cents and sums only whole cents', () => {
    expect(parseUsdToCents('12.34')).toBe(1234);
    expect(parseUsdToCents('-0.05')).toBe(-5);
    expect(parseUsdToCents('1.2')).toBeNaN();
    expect(sumCents([10, 20, 30])).toBe(60);
    expect(() => sumCents([0.1, 0.2])).toThrow(RangeError);
  });

  it('shows token base units in whole coins exactly', () => {
    expect(formatTokenUnits('10000000', 6)).toBe('10');
    expect(formatTokenUnits('1500000', 6)).toBe('1.5');
    expect(formatTokenUnits('1', 18)).toBe('0.000000000000000001');
    expect(formatTokenUnits('123456789012345678901234567890', 18)).toBe(
      '123456789012.34567890123456789',
    );
    expect(formatTokenUnits('7', 0)).toBe('7');
  });

  it('sums the report’s local days per calendar month of its zone over the last 12 months', () => {
    // Shanghai midnights are 16:00 UTC the day before: 2026-02-28T16:00Z is already March there.
    const zone = 'Asia/Shanghai';
    const now = Date.UTC(2026, 2, 10);
    const day = (y: number, m: number, d: number) => Date.UTC(y, m, d) - 8 * 3_600_000;
    const report = {
      timeZone: zone,
      buckets: [
        day(2025, 1, 1),
        day(2025, 3, 1),
        day(2026, 1, 28),
        day(2026, 2, 1),
        day(2026, 2, 9),
      ],
      series: [
        { id: 'total', name: 'Total', data: [999, 7, 40, 100, 250] },
        // per-type series are not added again
        { id: 'standard', name: 'standard', data: [999, 7, 40, 100, 250] },
      ],
    };
    expect(localParts(report.buckets[3]!, zone)).toMatchObject({ month: 3, day: 1 });
    const points = spendByMonth(report, now);
    expect(points).toHaveLength(12);
    // 13 months back is outside the window.
    expect(points[0]).toEqual({ month: '2025-04', cents: 7 });
    expect(points.at(-2)).toEqual({ month: '2026-02', cents: 40 });
    expect(points.at(-1)).toEqual({ month: '2026-03', cents: 350 });
  });

  it('asks for at most 366 days: from the first of the oldest month to tomorrow', () => {
    const range = spendRange(new Date(2026, 2, 10, 15).getTime());
    expect(range).toEqual({
      from: new Date(2025, 3, 1).getTime(),
      to: new Date(2026, 2, 11).getTime(),
    });
    // The last day of a month after a leap day: never over the day bucket's limit.
    const longest = spendRange(new Date(2028, 2, 31, 23).getTime());
    expect(longest.to - longest.from).toBeLessThanOrEqual(366 * 86_400_000);
    expect(longest.to).toBeGreaterThan(new Date(2028, 2, 31, 23).getTime());
  });

  it.each([
    [
      'no answer',
      new RpcCallError('m', { code: TRANSPORT_ERROR_CODE, message: '', messageZh: '' }),
      true,
    ],
    [
      'a gateway 502',
      new RpcCallError('m', { code: TRANSPORT_ERROR_CODE, message: '', messageZh: '' }, 502),
      true,
    ],
    ['a timeout', new RpcCancelledError('m', 'timeout'), true],
    ['an internal error', new RpcCallError('m', { code: 10500, message: '', messageZh: '' }), true],
    [
      'insufficient balance',
      new RpcCallError('m', { code: 10701, message: '', messageZh: '' }),
      false,
    ],
    ['price changed', new RpcCallError('m', { code: 10703, message: '', messageZh: '' }), false],
    [
      'a proxy 429',
      new RpcCallError('m', { code: TRANSPORT_ERROR_CODE, message: '', messageZh: '' }, 429),
      false,
    ],
    ['a route change', new RpcCancelledError('m', 'route-change'), false],
  ])('a purchase failing with %s may have been paid: %s', (_name, error, expected) => {
    expect(isOutcomeUnknown(error)).toBe(expected);
  });
});

describe('the top-up reminder (rechargeTips)', () => {
  afterEach(() => {
    sessionStorage.clear();
    useSession.setState({ user: null });
  });

  it('warns about arrears with a way to top up, and stays closed once dismissed', async () => {
    useSession.setState({ user: makeUser({ rechargeTips: 1 }) });
    wallet = makeWallet({ amount: '0.00', amountCents: 0, arrears: '3.50', arrearsCents: 350 });
    const first = renderAt('/rpc', TopUpReminder);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Pay-as-you-go owes $3.50 beyond your wallet.');
    expect(within(alert).getByRole('link', { name: 'Top up' })).toHaveAttribute(
      'href',
      '/rpc/billings/charge',
    );
    await userEvent.click(within(alert).getByRole('button', { name: /close/i }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    first.unmount();
    renderAt('/rpc', TopUpReminder);
    await waitFor(() => expect(calls('hub_getUserWalletOverview').length).toBeGreaterThan(0));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says when no RUs are left without pay-as-you-go, and nothing when all is well', async () => {
    useSession.setState({ user: makeUser({ rechargeTips: 1 }) });
    wallet = makeWallet({ ruLeft: 0, packages: [] });
    const view = renderAt('/rpc', TopUpReminder);
    expect(await screen.findByRole('alert')).toHaveTextContent('No RUs are left');
    view.unmount();
    wallet = makeWallet();
    renderAt('/rpc', TopUpReminder);
    await waitFor(() => expect(calls('hub_getUserWalletOverview').length).toBeGreaterThan(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('asks nothing of the server for a user with reminders off', async () => {
    useSession.setState({ user: makeUser({ rechargeTips: 0 }) });
    wallet = makeWallet({ arrears: '3.50', arrearsCents: 350 });
    renderAt('/rpc', TopUpReminder);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls('hub_getUserWalletOverview')).toEqual([]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
