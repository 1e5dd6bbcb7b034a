/**
 * Card payments against a fake API and a fake Stripe.js: callRpc and the Stripe loader (lib/stripe.ts) are the only
 * things replaced, every fake answer and every call's params are checked against the contract (test/fake-api.ts),
 * and no test touches the network.
 */
import type {
  TCard,
  TCardOrder,
  TMethodName,
  TParamsIn,
  TQuote,
  TResult,
  TSku,
  TWalletOverview,
} from '@rpc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../lib/i18n';
import type * as RpcClientModule from '../../lib/rpc-client';
import { RpcCallError, TRANSPORT_ERROR_CODE, callRpc } from '../../lib/rpc-client';
import type { TFakeHandlers } from '../../test/fake-api';
import { fakeRpc } from '../../test/fake-api';
import { BuyPackageSection } from './components/buy-package-section';
import { PaymentCardsCard } from './components/payment-cards-card';
import { SubscriptionsCard } from './components/subscriptions-card';
import { TopUpByCard } from './components/top-up-by-card';
import { CARD_POLL_MS } from '../../lib/card-order/follow-card-order';
import { getStripe } from '../../lib/stripe';
import { parseTopUpAmount } from './utils/top-up';

vi.mock('../../lib/rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));
vi.mock('../../lib/stripe', () => ({ getStripe: vi.fn() }));

const rpc = vi.mocked(callRpc);
const loadStripe = vi.mocked(getStripe);

// --- Fake Stripe.js: just what <Elements>, <CardElement> and the card flows call ---

function makeFakeStripe() {
  const element = {
    mount: vi.fn(),
    on: vi.fn(),
    off: vi.fn(),
    update: vi.fn(),
    destroy: vi.fn(),
    unmount: vi.fn(),
    focus: vi.fn(),
    blur: vi.fn(),
    clear: vi.fn(),
  };
  const elements = {
    create: vi.fn(() => element),
    getElement: vi.fn(() => element),
    update: vi.fn(),
  };
  return {
    element,
    elements: vi.fn(() => elements),
    createToken: vi.fn(),
    createPaymentMethod: vi.fn(),
    confirmCardSetup: vi.fn(async (_secret: string, _data: unknown) => ({
      setupIntent: { id: 'seti_1', status: 'succeeded', payment_method: 'pm_new' },
    })),
    confirmCardPayment: vi.fn(async (_secret: string) => ({
      paymentIntent: { id: 'pi_1', status: 'succeeded' },
    })),
    _registerWrapper: vi.fn(),
    registerAppInfo: vi.fn(),
  };
}

let stripe: ReturnType<typeof makeFakeStripe>;

// --- Fake data ---

const PK = 'pk_test_fake';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const EXPIRES = new Date(2026, 1, 14, 10, 30).getTime();

function makeCard(patch: Partial<TCard> = {}): TCard {
  return {
    id: 'pm_visa',
    brand: 'visa',
    last4: '4242',
    expMonth: 4,
    expYear: 2030,
    isDefault: true,
    isExpired: false,
    ...patch,
  };
}

const GROWTH: TSku = {
  id: 'growth',
  type: 'standard',
  name: { en: 'Growth', zh: '成长版' },
  description: { en: 'About growth', zh: '关于成长版' },
  ru: 10_000_000,
  priceCents: 4900,
  validityDays: 30,
  tier: 'growth',
  paygCentsPerMillionRu: null,
  arrearsLimitCents: null,
  isMonthlyFree: false,
  isPurchasable: true,
  canAutoRenew: true,
};

function makeQuote(patch: Partial<TQuote> = {}): TQuote {
  return {
    skuId: 'growth',
    skuVersion: 'v1',
    isFirstPurchase: false,
    priceCents: 4900,
    discountCents: 0,
    payCents: 4900,
    walletCents: 1000,
    walletAfterCents: -3900,
    canPay: false,
    tierBefore: 'free',
    tierAfter: 'growth',
    expiresAt: EXPIRES,
    discountCode: null,
    ...patch,
  };
}

function makeOrder(patch: Partial<TCardOrder> = {}): TCardOrder {
  return {
    orderId: uuid(1),
    kind: 'package',
    status: 'pending',
    isSettled: false,
    amountCents: 4900,
    amount: '49.00',
    skuId: 'growth',
    skuName: { en: 'Growth', zh: '成长版' },
    clientSecret: null,
    purchaseId: null,
    nodeId: null,
    failureCode: null,
    card: { brand: 'visa', last4: '4242' },
    createdAt: EXPIRES,
    settledAt: null,
    ...patch,
  };
}

const SETTLED = { isSettled: true, settledAt: EXPIRES } as const;

type TSubscription = TResult<'hub_getSubscriptions'>['list'][number];

function makeSubscription(patch: Partial<TSubscription> = {}): TSubscription {
  return {
    packageId: uuid(10),
    skuId: 'growth',
    name: { en: 'Growth', zh: '成长版' },
    priceCents: 4900,
    renewsAt: EXPIRES,
    channel: 'wallet',
    card: null,
    ...patch,
  };
}

const WALLET: TWalletOverview = {
  currency: 'USD',
  amount: '10.00',
  amountCents: 1000,
  arrears: '0.00',
  arrearsCents: 0,
  ruLeft: 0,
  tier: 'free',
  isPaygActive: false,
  packages: [],
};

// --- The fake server ---

let publishableKey: string | null;
let isConfigured: boolean;
let cards: TCard[];
let subscriptions: TSubscription[];
/** what hub_polling answers, one per poll; the last one repeats */
let polls: TCardOrder[];
let overrides: TFakeHandlers = {};

const handlers: TFakeHandlers = {
  hub_getConfig: () => ({
    version: 'test',
    gatewayHttpUrlTemplate: 'http://localhost:3001/v1/{chain}/{key}',
    gatewayWsUrlTemplate: 'ws://localhost:3001/v1/{chain}/{key}',
    registrationOpen: true,
    supportEmail: 'support@example.com',
    stripePublishableKey: publishableKey,
    oauthProviders: [],
    siweDomain: 'localhost',
  }),
  hub_getCreditCardList: () => ({ isConfigured, list: isConfigured ? cards : [] }),
  hub_setDefaultCreditCard: (p: TParamsIn<'hub_setDefaultCreditCard'>) => {
    cards = cards.map((c) => ({ ...c, isDefault: c.id === p.cardId }));
    return { list: cards };
  },
  hub_removeCreditCard: (p: TParamsIn<'hub_removeCreditCard'>) => {
    cards = cards.filter((c) => c.id !== p.cardId);
    return { list: cards };
  },
  hub_createStripeSetup: () => ({
    clientSecret: 'seti_1_secret_abc',
    setupIntentId: 'seti_1',
    publishableKey: PK,
  }),
  hub_createAutoRenewStripeSetup: () => ({
    clientSecret: 'seti_2_secret_def',
    setupIntentId: 'seti_2',
    publishableKey: PK,
  }),
  hub_getSubscriptions: () => ({ list: subscriptions }),
  hub_setAutoRenewByCard: (p: TParamsIn<'hub_setAutoRenewByCard'>) => {
    const card = cards.find((c) => c.id === p.cardId) ?? cards.find((c) => c.isDefault) ?? null;
    const sub = subscriptions.find((s) => s.packageId === p.packageId)!;
    Object.assign(sub, { channel: p.byCard ? 'card' : 'wallet', card: p.byCard ? card : null });
    return sub;
  },
  hub_setUserAutoRenew: (p: TParamsIn<'hub_setUserAutoRenew'>) => {
    subscriptions = subscriptions.filter((s) => s.packageId !== p.packageId);
    return {
      id: p.packageId,
      skuId: 'growth',
      type: 'standard',
      name: { en: 'Growth', zh: '成长版' },
      status: 'active',
      tier: 'growth',
      ruTotal: 1,
      ruUsed: 0,
      ruLeft: 1,
      startsAt: EXPIRES,
      expiresAt: EXPIRES,
      autoRenew: p.autoRenew,
      renewChannel: 'wallet',
      createdAt: EXPIRES,
    };
  },
  hub_getUserWalletOverview: () => WALLET,
  hub_getSkuList: () => ({ version: 'v1', currency: 'USD', list: [GROWTH] }),
  hub_getUserDiscountCodeDetail: () => null,
  hub_skuFirstConfirm: () => makeQuote(),
  hub_skuFirstConfirmCard: () => {
    const card = cards.find((c) => c.isDefault);
    return {
      ...makeQuote(),
      card: card ? { id: card.id, brand: card.brand, last4: card.last4 } : null,
    };
  },
  hub_buyPackageByCard: () => makeOrder(),
  hub_createStripeOrder: (p: TParamsIn<'hub_createStripeOrder'>) =>
    makeOrder({
      kind: 'top_up',
      status: 'succeeded',
      ...SETTLED,
      amountCents: p.amountCents,
      amount: (p.amountCents / 100).toFixed(2),
      skuId: null,
      skuName: null,
    }),
  hub_polling: () => (polls.length > 1 ? polls.shift()! : polls[0]!),
};

function calls<N extends TMethodName>(method: N) {
  return rpc.mock.calls.filter(([name]) => name === method).map(([, p]) => p as TParamsIn<N>);
}

function renderWith(ui: ReactElement) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={queryClient}>
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <MemoryRouter>{ui}</MemoryRouter>
      </ConfigProvider>
    </QueryClientProvider>,
  );
}

/** Opens the purchase confirmation of Growth and switches it to paying by card. */
async function openCardPurchase() {
  renderWith(<BuyPackageSection />);
  await userEvent.click(await screen.findByRole('button', { name: 'Buy Growth' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Confirm purchase: Growth' }));
  const method = within(await dialog.findByRole('group', { name: 'Pay with' }));
  await userEvent.click(method.getByRole('radio', { name: 'Card' }));
  return dialog;
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  publishableKey = PK;
  isConfigured = true;
  cards = [
    makeCard(),
    makeCard({
      id: 'pm_old',
      brand: 'mastercard',
      last4: '4444',
      expMonth: 1,
      expYear: 2020,
      isDefault: false,
      isExpired: true,
    }),
  ];
  subscriptions = [];
  polls = [makeOrder({ status: 'succeeded', ...SETTLED, purchaseId: 'p1' })];
  overrides = {};
  stripe = makeFakeStripe();
  loadStripe.mockReset();
  loadStripe.mockImplementation(async () => stripe as never);
  rpc.mockReset();
  rpc.mockImplementation(fakeRpc(() => ({ ...handlers, ...overrides })));
  await act(() => i18n.changeLanguage('en'));
});

afterEach(() => {
  vi.useRealTimers();
});

describe('card payments not configured', () => {
  it.each([
    ['no publishable key in the config', () => (publishableKey = null)],
    ['the card list says so', () => (isConfigured = false)],
  ])('with %s, every card area says so and Stripe.js is never loaded', async (_name, setUp) => {
    setUp();
    subscriptions = [makeSubscription()];
    renderWith(
      <>
        <PaymentCardsCard />
        <SubscriptionsCard />
        <TopUpByCard />
        <BuyPackageSection />
      </>,
    );
    for (const name of ['Payment cards', 'Auto-renewals', 'Top up by card']) {
      const region = within(screen.getByRole('region', { name }));
      expect(
        await region.findByText('Card payments are not configured on this console.'),
      ).toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: 'Add card' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Renew Growth by card' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Amount (USD)')).not.toBeInTheDocument();

    await userEvent.click(await screen.findByRole('button', { name: 'Buy Growth' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(await dialog.findByRole('button', { name: 'Pay $49.00' })).toBeInTheDocument();
    expect(dialog.queryByRole('group', { name: 'Pay with' })).not.toBeInTheDocument();
    expect(loadStripe).not.toHaveBeenCalled();
    expect(calls('hub_skuFirstConfirmCard')).toHaveLength(0);
  });
});

describe('payment cards', () => {
  it('lists the cards with brand, last 4, expiry, default and expired; makes another card the default', async () => {
    cards[1] = { ...cards[1]!, isExpired: false, expYear: 2031 };
    renderWith(<PaymentCardsCard />);
    const list = within(await screen.findByRole('list', { name: 'Saved cards' }));
    const [visa, master] = list.getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(visa).toHaveTextContent('Visa •••• 4242');
    expect(visa).toHaveTextContent('Expires 04/2030');
    expect(within(visa).getByText('Default')).toBeInTheDocument();
    expect(master).toHaveTextContent('Mastercard •••• 4444');
    expect(within(master).queryByText('Default')).not.toBeInTheDocument();

    await userEvent.click(
      within(master).getByRole('button', { name: 'Make Mastercard •••• 4444 the default card' }),
    );
    await waitFor(() => expect(calls('hub_setDefaultCreditCard')).toEqual([{ cardId: 'pm_old' }]));
    expect(await screen.findByText('Mastercard •••• 4444 is now your default card.')).toBeVisible();
    // the default card is listed first
    await waitFor(() =>
      expect(screen.getAllByRole('listitem')[0]).toHaveTextContent(
        'Mastercard •••• 4444Expires 01/2031Default',
      ),
    );
    expect(
      screen.getByRole('button', { name: 'Make Visa •••• 4242 the default card' }),
    ).toBeInTheDocument();
  });

  it('marks an expired card and does not offer it as the default', async () => {
    renderWith(<PaymentCardsCard />);
    const list = within(await screen.findByRole('list', { name: 'Saved cards' }));
    const expired = list.getAllByRole('listitem')[1]!;
    expect(within(expired).getByText('Expired')).toBeInTheDocument();
    expect(within(expired).getByText('Expires 01/2020')).toBeInTheDocument();
    expect(
      within(expired).getByRole('button', { name: 'Make Mastercard •••• 4444 the default card' }),
    ).toBeDisabled();
  });

  it('asks before removing a card, saying its renewals fall back to the default card', async () => {
    renderWith(<PaymentCardsCard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Visa •••• 4242' }));
    const confirm = within(await screen.findByRole('tooltip'));
    expect(confirm.getByText('Remove Visa •••• 4242?')).toBeInTheDocument();
    expect(confirm.getByText(/charged to your default card instead/)).toBeInTheDocument();
    expect(calls('hub_removeCreditCard')).toHaveLength(0);
    await userEvent.click(confirm.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls('hub_removeCreditCard')).toEqual([{ cardId: 'pm_visa' }]));
    await waitFor(() => expect(screen.queryByText('Visa •••• 4242')).not.toBeInTheDocument());
  });

  it('says when no card is saved, and when the cards cannot be loaded (with a retry)', async () => {
    cards = [];
    const view = renderWith(<PaymentCardsCard />);
    expect(await screen.findByText(/No saved cards/)).toBeInTheDocument();
    view.unmount();

    overrides.hub_getCreditCardList = () => {
      throw new RpcCallError('hub_getCreditCardList', {
        code: 10803,
        message: 'The card payment service did not answer.',
        messageZh: '',
      });
    };
    renderWith(<PaymentCardsCard />);
    expect(await screen.findByText('Your cards could not be loaded.')).toBeInTheDocument();
    delete overrides.hub_getCreditCardList;
    cards = [makeCard()];
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Visa •••• 4242')).toBeInTheDocument();
  });

  it('adds a card: Stripe.js only now, a SetupIntent, confirmCardSetup with the card field, the list refreshed', async () => {
    renderWith(<PaymentCardsCard />);
    await screen.findByText('Visa •••• 4242');
    expect(loadStripe).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Add card' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a card' }));
    expect(await dialog.findByRole('group', { name: 'Card details' })).toBeInTheDocument();
    expect(loadStripe).toHaveBeenCalledWith(PK);
    expect(stripe.element.mount).toHaveBeenCalled();

    cards = [
      ...cards,
      makeCard({ id: 'pm_new', brand: 'unionpay', last4: '0005', isDefault: false }),
    ];
    await userEvent.click(dialog.getByRole('button', { name: 'Save card' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('hub_createStripeSetup')).toEqual([{}]);
    expect(stripe.confirmCardSetup).toHaveBeenCalledWith('seti_1_secret_abc', {
      payment_method: { card: stripe.element },
    });
    expect(await screen.findByText('UnionPay •••• 0005')).toBeInTheDocument();
    // antd renders a message a tick after it is opened: wait for it (it failed once under load).
    expect(await screen.findByText('Card saved.')).toBeInTheDocument();
  });

  it('shows Stripe’s refusal in the dialog and sends the same SetupIntent again after a card error', async () => {
    stripe.confirmCardSetup.mockResolvedValueOnce({
      error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
    } as never);
    renderWith(<PaymentCardsCard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add card' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a card' }));
    await userEvent.click(await dialog.findByRole('button', { name: 'Save card' }));
    expect(
      await dialog.findByText('The card could not be saved: the card was declined.'),
    ).toBeInTheDocument();
    // (under jsdom antd's loading icon never finishes leaving, so the name may still start with "loading")
    await userEvent.click(dialog.getByRole('button', { name: /Save card$/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('hub_createStripeSetup')).toHaveLength(1);
    expect(stripe.confirmCardSetup).toHaveBeenCalledTimes(2);
  });

  it('says so in the dialog when Stripe.js cannot be loaded, and tries again', async () => {
    loadStripe.mockRejectedValueOnce(new Error('Failed to load Stripe.js'));
    renderWith(<PaymentCardsCard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add card' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a card' }));
    expect(await dialog.findByText(/card form could not be loaded/)).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Try again' }));
    expect(await dialog.findByRole('button', { name: 'Save card' })).toBeInTheDocument();
  });
});

describe('buying a package by card', () => {
  it('quotes by card, pays once with one key and the confirmed price, polls until paid', async () => {
    polls = [makeOrder(), makeOrder({ status: 'succeeded', ...SETTLED, purchaseId: 'p1' })];
    const dialog = await openCardPurchase();
    expect(await dialog.findByText('$49.00', { selector: 'strong' })).toBeInTheDocument();
    expect(calls('hub_skuFirstConfirmCard')).toEqual([{ skuId: 'growth', useDiscount: true }]);
    // the expired card is not offered
    expect(dialog.getByRole('combobox', { name: 'Card to charge' })).toBeInTheDocument();
    expect(dialog.getByText('Visa •••• 4242 (default)')).toBeInTheDocument();
    await userEvent.click(
      dialog.getByRole('switch', {
        name: 'Renew automatically by card when it runs out or expires',
      }),
    );
    const overviewCalls = calls('hub_getUserWalletOverview').length;

    await userEvent.click(dialog.getByRole('button', { name: 'Pay $49.00 by card' }));
    await waitFor(() => expect(calls('hub_buyPackageByCard')).toHaveLength(1));
    expect(calls('hub_buyPackageByCard')[0]).toEqual({
      skuId: 'growth',
      idempotencyKey: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
      cardId: 'pm_visa',
      useDiscount: true,
      autoRenew: true,
      expectedPayCents: 4900,
    });
    const progress = dialog.getByRole('status', { name: 'Card payment' });
    expect(await within(progress).findByText('Processing the card payment…')).toBeInTheDocument();
    expect(
      await within(progress).findByText(
        'Paid $49.00 by card. Growth is yours; its RUs are ready to use.',
        {},
        { timeout: 3 * CARD_POLL_MS + 2000 },
      ),
    ).toBeInTheDocument();
    expect(calls('hub_polling')).toEqual([{ orderId: uuid(1) }, { orderId: uuid(1) }]);
    expect(stripe.confirmCardPayment).not.toHaveBeenCalled();
    await waitFor(() =>
      expect(calls('hub_getUserWalletOverview').length).toBeGreaterThan(overviewCalls),
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  }, 15_000);

  it('authenticates a payment that requires action with confirmCardPayment, then polls', async () => {
    overrides.hub_buyPackageByCard = () =>
      makeOrder({ status: 'requires_action', clientSecret: 'pi_3ds_secret_xyz' });
    polls = [makeOrder({ status: 'succeeded', ...SETTLED })];
    const dialog = await openCardPurchase();
    await userEvent.click(await dialog.findByRole('button', { name: 'Pay $49.00 by card' }));
    expect(
      await dialog.findByText('Paid $49.00 by card. Growth is yours; its RUs are ready to use.'),
    ).toBeInTheDocument();
    expect(loadStripe).toHaveBeenCalledWith(PK);
    expect(stripe.confirmCardPayment).toHaveBeenCalledWith('pi_3ds_secret_xyz');
    expect(calls('hub_polling')).toHaveLength(1);
  });

  it('says the authentication failed when the buyer does not complete it', async () => {
    overrides.hub_buyPackageByCard = () =>
      makeOrder({ status: 'requires_action', clientSecret: 'pi_3ds_secret_xyz' });
    polls = [makeOrder({ status: 'requires_action', clientSecret: 'pi_3ds_secret_xyz' })];
    stripe.confirmCardPayment.mockResolvedValueOnce({
      error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure' },
    } as never);
    const dialog = await openCardPurchase();
    await userEvent.click(await dialog.findByRole('button', { name: 'Pay $49.00 by card' }));
    expect(
      await dialog.findByText(
        "The payment did not go through: the bank's authentication was not completed. Nothing was charged.",
      ),
    ).toBeInTheDocument();
  });

  it.each([
    ['card_declined', 'the card was declined.'],
    ['insufficient_funds', 'the card has insufficient funds.'],
    ['expired_card', 'the card has expired.'],
    ['authentication_required', "the bank's authentication was not completed."],
    ['processing_error', 'the card could not be charged.'],
  ])('a payment failed with %s says why; paying again is a new attempt', async (code, reason) => {
    overrides.hub_buyPackageByCard = () =>
      makeOrder({ status: 'failed', ...SETTLED, failureCode: code });
    const dialog = await openCardPurchase();
    await userEvent.click(await dialog.findByRole('button', { name: 'Pay $49.00 by card' }));
    expect(
      await dialog.findByText(`The payment did not go through: ${reason} Nothing was charged.`),
    ).toBeInTheDocument();
    expect(calls('hub_polling')).toHaveLength(0);
    // (under jsdom antd's loading icon never finishes leaving, so the name may still start with "loading")
    await userEvent.click(dialog.getByRole('button', { name: /Pay \$49\.00 by card$/ }));
    await waitFor(() => expect(calls('hub_buyPackageByCard')).toHaveLength(2));
    const [first, second] = calls('hub_buyPackageByCard');
    expect(second!.idempotencyKey).not.toBe(first!.idempotencyKey);
  });

  it('says a paid order that could not apply the package was credited to the wallet', async () => {
    overrides.hub_buyPackageByCard = () =>
      makeOrder({ status: 'credited', ...SETTLED, failureCode: 'sold_out' });
    const dialog = await openCardPurchase();
    await userEvent.click(await dialog.findByRole('button', { name: 'Pay $49.00 by card' }));
    expect(
      await dialog.findByText(
        'Paid $49.00, but the package could not be applied; the amount is in your wallet.',
      ),
    ).toBeInTheDocument();
  });

  it('after a lost answer pays again with the same key and terms', async () => {
    let failures = 1;
    overrides.hub_buyPackageByCard = () => {
      if (failures-- > 0) {
        throw new RpcCallError('hub_buyPackageByCard', {
          code: TRANSPORT_ERROR_CODE,
          message: 'Network Error',
          messageZh: '网络错误',
        });
      }
      return makeOrder({ status: 'succeeded', ...SETTLED });
    };
    const dialog = await openCardPurchase();
    await userEvent.click(await dialog.findByRole('button', { name: 'Pay $49.00 by card' }));
    expect(await dialog.findByText(/charged at most once/)).toBeInTheDocument();
    expect(dialog.getByRole('radio', { name: 'Wallet balance' })).toBeDisabled();
    await userEvent.click(
      await dialog.findByRole('button', { name: /Try paying \$49\.00 by card again$/ }),
    );
    await waitFor(() => expect(calls('hub_buyPackageByCard')).toHaveLength(2));
    const [first, second] = calls('hub_buyPackageByCard');
    expect(second).toEqual(first);
  });

  it('with no card saved offers to add one, then charges it', async () => {
    cards = [];
    const dialog = await openCardPurchase();
    expect(await dialog.findByText('No card is saved yet.')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Pay $49.00 by card' })).toBeDisabled();
    await userEvent.click(dialog.getByRole('button', { name: 'Add a card' }));
    // The nested dialog: under test every antd dialog gets the same title id, so it is found by its place.
    await waitFor(() => expect(screen.getAllByRole('dialog')).toHaveLength(2));
    const add = within(screen.getAllByRole('dialog')[1]!);
    expect(add.getByText('Add a card')).toBeInTheDocument();
    cards = [makeCard({ id: 'pm_new', last4: '0077' })];
    await userEvent.click(await add.findByRole('button', { name: 'Save card' }));
    expect(await dialog.findByText('Visa •••• 0077 (default)')).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Pay $49.00 by card' }));
    await waitFor(() =>
      expect(calls('hub_buyPackageByCard')[0]).toMatchObject({ cardId: 'pm_new' }),
    );
  });
});

describe('top up by card', () => {
  it.each([
    ['4.99', 'The smallest top-up by card is $5.00.'],
    ['10000.01', 'The largest top-up by card is $10,000.00.'],
    ['12.345', 'Enter an amount in US dollars with at most two decimals, for example 12.34.'],
    ['12,34', 'Enter an amount in US dollars with at most two decimals, for example 12.34.'],
    ['-5', 'Enter an amount in US dollars with at most two decimals, for example 12.34.'],
  ])('refuses %s before asking the server', async (amount, problem) => {
    renderWith(<TopUpByCard />);
    await userEvent.type(await screen.findByLabelText('Amount (USD)'), amount);
    await userEvent.click(screen.getByRole('button', { name: /^Pay/ }));
    expect(await screen.findByText(problem)).toBeInTheDocument();
    expect(calls('hub_createStripeOrder')).toHaveLength(0);
  });

  it('pays the amount in cents with the chosen card and says the wallet is credited', async () => {
    renderWith(<TopUpByCard />);
    expect(await screen.findByText('From $5.00 to $10,000.00.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Amount (USD)'), '12.34');
    expect(screen.getByRole('combobox', { name: 'Card' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Pay $12.34' }));
    await waitFor(() =>
      expect(calls('hub_createStripeOrder')).toEqual([
        {
          amountCents: 1234,
          idempotencyKey: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
          cardId: 'pm_visa',
        },
      ]),
    );
    expect(
      await screen.findByText('Paid $12.34 by card. Your wallet is credited with $12.34.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Amount (USD)')).toHaveValue('');
  });

  it.each([
    ['10000', 1_000_000],
    ['5', 500],
    ['7.5', 750],
  ])('accepts %s as %i cents', (input, cents) => {
    expect(parseTopUpAmount(input)).toEqual({ ok: true, cents });
  });
});

describe('auto-renewals', () => {
  beforeEach(() => {
    subscriptions = [
      makeSubscription(),
      makeSubscription({
        packageId: uuid(11),
        name: { en: 'Scale', zh: '规模版' },
        priceCents: 19_900,
        renewsAt: null,
        channel: 'card',
        card: { id: 'pm_visa', brand: 'visa', last4: '4242' },
      }),
    ];
  });

  it('lists name, price, renewal and what pays', async () => {
    renderWith(<SubscriptionsCard />);
    const region = within(await screen.findByRole('region', { name: 'Auto-renewals' }));
    const rows = await region.findAllByRole('row');
    expect(rows[1]).toHaveTextContent('Growth$49.002026-02-14 10:30Wallet');
    expect(rows[2]).toHaveTextContent('Scale$199.00When it runs outVisa •••• 4242');
  });

  it('cancels a renewal after asking', async () => {
    renderWith(<SubscriptionsCard />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Cancel the renewal of Growth' }),
    );
    const confirm = within(await screen.findByRole('tooltip'));
    expect(confirm.getByText('Stop renewing Growth?')).toBeInTheDocument();
    expect(calls('hub_setUserAutoRenew')).toHaveLength(0);
    await userEvent.click(confirm.getByRole('button', { name: 'Stop renewing' }));
    await waitFor(() =>
      expect(calls('hub_setUserAutoRenew')).toEqual([{ packageId: uuid(10), autoRenew: false }]),
    );
    await waitFor(() => expect(screen.queryByText('Growth')).not.toBeInTheDocument());
  });

  it('switches a renewal to the default card and back to the wallet', async () => {
    renderWith(<SubscriptionsCard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Renew Growth by card' }));
    await waitFor(() =>
      expect(calls('hub_setAutoRenewByCard')).toEqual([{ packageId: uuid(10), byCard: true }]),
    );
    await userEvent.click(
      await screen.findByRole('button', { name: 'Renew Growth from the wallet' }),
    );
    await waitFor(() =>
      expect(calls('hub_setAutoRenewByCard').at(-1)).toEqual({
        packageId: uuid(10),
        byCard: false,
      }),
    );
  });

  it('with no card saved, saves one for that package and renews by it', async () => {
    cards = [];
    renderWith(<SubscriptionsCard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Renew Growth by card' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Add a card to renew Growth' }),
    );
    cards = [makeCard({ id: 'pm_new' })];
    await userEvent.click(await dialog.findByRole('button', { name: 'Save card' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('hub_createAutoRenewStripeSetup')).toEqual([{ packageId: uuid(10) }]);
    expect(calls('hub_createStripeSetup')).toHaveLength(0);
    expect(stripe.confirmCardSetup).toHaveBeenCalledWith('seti_2_secret_def', expect.anything());
    expect(calls('hub_setAutoRenewByCard')).toEqual([
      { packageId: uuid(10), byCard: true, cardId: 'pm_new' },
    ]);
  });
});

describe('cards in Chinese', () => {
  it('names the cards and their areas in Chinese', async () => {
    await act(() => i18n.changeLanguage('zh'));
    cards = [makeCard({ brand: 'unionpay', last4: '1234' })];
    renderWith(<PaymentCardsCard />);
    const region = within(await screen.findByRole('region', { name: '支付卡' }));
    expect(await region.findByText('银联 •••• 1234')).toBeInTheDocument();
    expect(region.getByText('默认')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '添加银行卡' })).toBeInTheDocument();
  });
});
