/**
 * Card payments against the local fake Stripe (test/helpers/fake-stripe.ts) with the official SDK pointed at it:
 * saved cards, buying and topping up by card exactly once (replays, concurrent requests, a Stripe outage),
 * declines and 3-D Secure, webhooks (duplicated, replayed, tampered, stale, out of order), polling without a
 * webhook, auto-renewal by card and its failure notice, a renewal paid after auto-renew went off (credited, not
 * renewed), and the wallet equal to its ledger throughout.
 */
import { randomUUID } from 'node:crypto';
import { ERROR_CODES } from '@rpc/contract';
import {
  accounts,
  cardOrders,
  moneyLedger,
  notices,
  purchases,
  ruPackages,
  users,
  type TDatabase,
} from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ledgerWalletCents, postMoney } from '../src/services/wallet/post-money';
import { CHARGE_RETRY_WINDOW_MS } from '../src/services/cards/card-orders';
import { renewPackageByCard } from '../src/services/cards/subscriptions';
import { ORDER_HARD_LIMIT_MS, sweepCardOrders } from '../src/services/cards/sweep-card-orders';
import { findSku } from '../src/services/wallet/sku-catalogue';
import { sweepPackages } from '../src/services/wallet/sweep-packages';
import { TEST_DATABASES } from './helpers/databases';
import { startFakeStripe, type TFakeEvent, type TFakeStripe } from './helpers/fake-stripe';
import { createHarness, digest, type THarness } from './helpers/harness';

const DAY = 86_400_000;
const key = () => randomUUID().replaceAll('-', '');

describe.each(TEST_DATABASES)('card payments on $name', ({ open }) => {
  let h: THarness;
  let bare: THarness;
  let fake: TFakeStripe;
  let db: TDatabase;
  beforeAll(async () => {
    fake = await startFakeStripe();
    h = await createHarness(open, {
      env: {
        STRIPE_SECRET_KEY: fake.secretKey,
        STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
        STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
        STRIPE_API_BASE: fake.url,
      },
    });
    db = h.database.db;
    bare = await createHarness(open);
  });
  afterAll(async () => {
    await h?.close();
    await bare?.close();
    await fake?.close();
  });

  async function user() {
    const s = await h.signUp();
    const [u] = await db.select().from(users).where(eq(users.email, s.email));
    return { token: s.token, accountId: u!.personalAccountId };
  }

  /** What the browser does with Stripe.js: confirm the SetupIntent with the card's details. */
  async function saveCard(token: string, number: string) {
    const setup = await h.call('hub_createStripeSetup', {}, { token });
    expect(setup.ok).toBe(true);
    return fake.confirmSetup(setup.result!, number);
  }

  /** A user with a saved Visa who bought standard-100m by card (auto-renewing or not). */
  async function userWithPackage(autoRenew: boolean) {
    const u = await user();
    await saveCard(u.token, '4242424242424242');
    const bought = await h.call(
      'hub_buyPackageByCard',
      { skuId: 'standard-100m', idempotencyKey: key(), ...(autoRenew ? { autoRenew } : {}) },
      { token: u.token },
    );
    expect(bought.result?.status).toBe('succeeded');
    return u;
  }

  async function cards(token: string) {
    const r = await h.call('hub_getCreditCardList', {}, { token });
    expect(r.ok).toBe(true);
    return r.result!.list;
  }

  async function webhook(payload: string, signature?: string) {
    const res = await h.server.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      headers: {
        'content-type': 'application/json',
        ...(signature !== undefined ? { 'stripe-signature': signature } : {}),
      },
      payload,
    });
    return { status: res.statusCode, body: res.json() as { outcome: string } };
  }
  const deliver = (e: TFakeEvent) => webhook(e.payload, fake.sign(e.payload));
  const eventsOf = (piId: string) =>
    fake.events.filter((e) => e.payload.includes(`"id":"${piId}"`));

  async function expectLedgerMatches(accountId: string) {
    const [a] = await db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(a!.walletCents).toBe(await ledgerWalletCents(db, accountId));
  }

  it('without Stripe keys: cards say not configured, nothing crashes', async () => {
    const s = await bare.signUp();
    expect((await bare.call('hub_getConfig', {})).result?.stripePublishableKey).toBeNull();
    const list = await bare.call('hub_getCreditCardList', {}, { token: s.token });
    expect(list.result).toEqual({ isConfigured: false, list: [] });
    for (const [method, params] of [
      ['hub_createStripeSetup', {}],
      ['hub_buyPackageByCard', { skuId: 'standard-100m', idempotencyKey: key() }],
      ['hub_createStripeOrder', { amountCents: 1000, idempotencyKey: key() }],
      ['hub_skuFirstConfirmCard', { skuId: 'standard-100m' }],
    ] as const) {
      const r = await bare.call(method, params as never, { token: s.token });
      expect(r.error?.code, method).toBe(ERROR_CODES.CARDS_NOT_CONFIGURED);
    }
    const hook = await bare.server.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      payload: '{}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    });
    expect(hook.statusCode).toBe(404);
  });

  it('saves cards with their SPEC brands, sets the default, removes, and keeps other accounts out', async () => {
    expect((await h.call('hub_getConfig', {})).result?.stripePublishableKey).toBe('pk_test_fake');
    const u = await user();
    expect(await cards(u.token)).toEqual([]);
    expect((await saveCard(u.token, '4242424242424242')).status).toBe(200);
    expect((await saveCard(u.token, '5200828282828210')).status).toBe(200);
    const declined = await saveCard(u.token, '4000000000000002');
    expect(declined.status).toBe(402);
    let list = await cards(u.token);
    expect(list.map((c) => [c.brand, c.last4]).sort()).toEqual([
      ['mastercard_debit', '8210'],
      ['visa', '4242'],
    ]);
    expect(list.filter((c) => c.isDefault)).toHaveLength(1);
    const visa = list.find((c) => c.brand === 'visa')!;
    const set = await h.call('hub_setDefaultCreditCard', { cardId: visa.id }, { token: u.token });
    expect(set.result?.list.find((c) => c.id === visa.id)?.isDefault).toBe(true);

    const other = await user();
    for (const method of ['hub_setDefaultCreditCard', 'hub_removeCreditCard'] as const) {
      const r = await h.call(method, { cardId: visa.id }, { token: other.token });
      expect(r.error?.code, method).toBe(ERROR_CODES.NOT_FOUND);
    }
    for (const bad of ['', 'abc', 'pm_', `pm_${'x'.repeat(200)}`, "pm_1' or 1=1", 42, null]) {
      const r = await h.call('hub_removeCreditCard', { cardId: bad } as never, { token: u.token });
      expect(r.error?.code, String(bad)).toBe(ERROR_CODES.INVALID_PARAMS);
    }
    const removed = await h.call('hub_removeCreditCard', { cardId: visa.id }, { token: u.token });
    expect(removed.result?.list.map((c) => c.last4)).toEqual(['8210']);
    list = await cards(u.token);
    expect(list).toHaveLength(1);
    expect(list[0]!.isDefault).toBe(true);
  });

  it('buys a package by card once: wallet untouched, ledger credited and debited, replays answer the same order', async () => {
    const u = await user();
    await saveCard(u.token, '4242424242424242');
    const quote = await h.call(
      'hub_skuFirstConfirmCard',
      { skuId: 'standard-100m' },
      { token: u.token },
    );
    expect(quote.result).toMatchObject({ payCents: 4900, canPay: true, card: { last4: '4242' } });
    const k = key();
    const params = { skuId: 'standard-100m', idempotencyKey: k, expectedPayCents: 4900 };
    const [a, b, c] = await Promise.all([
      h.call('hub_buyPackageByCard', params, { token: u.token }),
      h.call('hub_buyPackageByCard', params, { token: u.token }),
      h.call('hub_buyPackageByCard', params, { token: u.token }),
    ]);
    for (const r of [a, b, c]) expect(r.result?.status, JSON.stringify(r.error)).toBe('succeeded');
    expect(new Set([a, b, c].map((r) => r.result!.orderId)).size).toBe(1);
    const order = a.result!;
    expect(order).toMatchObject({
      amountCents: 4900,
      amount: '49.00',
      isSettled: true,
      card: { brand: 'visa', last4: '4242' },
    });

    const bought = await db.select().from(purchases).where(eq(purchases.accountId, u.accountId));
    expect(bought.map((p) => [p.skuId, p.channel, p.paidCents])).toEqual([
      ['standard-100m', 'card', 4900],
    ]);
    const entries = await db
      .select()
      .from(moneyLedger)
      .where(eq(moneyLedger.accountId, u.accountId));
    expect(entries.map((e) => [e.kind, e.delta]).sort()).toEqual([
      ['card_payment', 4900],
      ['purchase', -4900],
    ]);
    expect(
      (await h.call('hub_getUserWalletOverview', {}, { token: u.token })).result?.amountCents,
    ).toBe(0);
    const intents = [...fake.paymentIntents.values()].filter(
      (pi) => (pi.metadata as { orderId?: string }).orderId === order.orderId,
    );
    expect(intents).toHaveLength(1);

    // Stripe's events, delivered twice each: applied once, the second answered as a duplicate.
    for (const e of eventsOf(intents[0]!.id as string)) {
      expect((await deliver(e)).status).toBe(200);
      expect((await deliver(e)).body.outcome).toBe('duplicate');
    }
    expect(
      await db.select().from(purchases).where(eq(purchases.accountId, u.accountId)),
    ).toHaveLength(1);
    await expectLedgerMatches(u.accountId);
    // One invoice, for the card purchase, numbered first of the year.
    const invoices = (await h.call('hub_getUserInvoice', {}, { token: u.token })).result!;
    expect(invoices.list.map((i) => [i.channel, i.totalCents, i.purchaseId])).toEqual([
      ['card', 4900, bought[0]!.id],
    ]);
    expect(invoices.list[0]!.number).toMatch(/^INV-\d{4}-000001$/);

    const reused = await h.call(
      'hub_buyPackageByCard',
      { ...params, skuId: 'standard-500m', expectedPayCents: undefined },
      { token: u.token },
    );
    expect(reused.error?.code).toBe(ERROR_CODES.IDEMPOTENCY_KEY_REUSED);
    const polled = await h.call('hub_polling', { orderId: order.orderId }, { token: u.token });
    expect(polled.result?.status).toBe('succeeded');
    const foreign = await h.call(
      'hub_polling',
      { orderId: order.orderId },
      { token: (await user()).token },
    );
    expect(foreign.error?.code).toBe(ERROR_CODES.NOT_FOUND);
  });

  it('a card pays the whole package even when the wallet is in pay-as-you-go arrears', async () => {
    const u = await user();
    await saveCard(u.token, '4242424242424242');
    // One cent of arrears (pay-as-you-go billed past the balance), which the quote does not ask the card to pay.
    await db.transaction((tx) =>
      postMoney(tx, {
        accountId: u.accountId,
        delta: -1,
        kind: 'adjustment',
        ref: key(),
        at: h.clock.now(),
      }),
    );
    const quote = await h.call(
      'hub_skuFirstConfirmCard',
      { skuId: 'standard-100m' },
      { token: u.token },
    );
    expect(quote.result).toMatchObject({ payCents: 4900, canPay: true });
    const order = await h.call(
      'hub_buyPackageByCard',
      { skuId: 'standard-100m', idempotencyKey: key(), expectedPayCents: 4900 },
      { token: u.token },
    );
    expect(order.result?.status, JSON.stringify(order.error)).toBe('succeeded');
    const bought = await db.select().from(purchases).where(eq(purchases.accountId, u.accountId));
    expect(bought.map((p) => [p.skuId, p.channel, p.paidCents])).toEqual([
      ['standard-100m', 'card', 4900],
    ]);
    // The arrears are what they were: the card paid the package, not the debt.
    expect(
      (await h.call('hub_getUserWalletOverview', {}, { token: u.token })).result,
    ).toMatchObject({ amountCents: 0, arrearsCents: 1 });
    await expectLedgerMatches(u.accountId);
  });

  it('refuses what cannot be paid by card, and writes nothing', async () => {
    const u = await user();
    const none = await h.call(
      'hub_buyPackageByCard',
      { skuId: 'standard-100m', idempotencyKey: key() },
      { token: u.token },
    );
    expect(none.error?.code).toBe(ERROR_CODES.CARD_REQUIRED);
    await saveCard(u.token, '4242424242424242');
    const cases: [unknown, number][] = [
      [{ skuId: 'payg', idempotencyKey: key() }, ERROR_CODES.NOTHING_TO_PAY_BY_CARD],
      [{ skuId: 'enterprise', idempotencyKey: key() }, ERROR_CODES.SKU_UNAVAILABLE],
      [
        { skuId: 'standard-100m', idempotencyKey: key(), expectedPayCents: 1 },
        ERROR_CODES.PRICE_CHANGED,
      ],
      [{ skuId: 'standard-100m', idempotencyKey: 'short' }, ERROR_CODES.INVALID_PARAMS],
      [{ skuId: '../../etc', idempotencyKey: key() }, ERROR_CODES.INVALID_PARAMS],
      [
        { skuId: 'standard-100m', idempotencyKey: key(), cardId: 'pm_notmine' },
        ERROR_CODES.NOT_FOUND,
      ],
      [{ idempotencyKey: key() }, ERROR_CODES.INVALID_PARAMS],
    ];
    for (const [params, code] of cases) {
      const r = await h.call('hub_buyPackageByCard', params as never, { token: u.token });
      expect(r.error?.code, JSON.stringify(params)).toBe(code);
    }
    for (const amountCents of [499, 1_000_001, 12.5, -1, '1000']) {
      const r = await h.call(
        'hub_createStripeOrder',
        { amountCents, idempotencyKey: key() } as never,
        { token: u.token },
      );
      expect(r.error?.code, String(amountCents)).toBe(ERROR_CODES.INVALID_PARAMS);
    }
    for (const orderId of [randomUUID(), 'nope', '']) {
      const r = await h.call('hub_polling', { orderId }, { token: u.token });
      expect(r.error?.code).toBe(orderId === randomUUID() ? ERROR_CODES.NOT_FOUND : r.error?.code);
      expect(r.ok).toBe(false);
    }
    expect(await db.select().from(cardOrders).where(eq(cardOrders.accountId, u.accountId))).toEqual(
      [],
    );
    expect(
      await db.select().from(moneyLedger).where(eq(moneyLedger.accountId, u.accountId)),
    ).toEqual([]);
  });

  it('tops up the wallet by card exactly once, even through a Stripe outage and a retry', async () => {
    const u = await user();
    await saveCard(u.token, '4242424242424242');
    const k = key();
    // Stripe is down when the charge is made (the SDK tries three times): the order exists, nothing is charged.
    fake.failNext(3, '/v1/payment_intents');
    const down = await h.call(
      'hub_createStripeOrder',
      { amountCents: 1234, idempotencyKey: k },
      { token: u.token },
    );
    expect(down.error?.code).toBe(ERROR_CODES.CARD_PAYMENT_UNAVAILABLE);
    const again = await h.call(
      'hub_createStripeOrder',
      { amountCents: 1234, idempotencyKey: k },
      { token: u.token },
    );
    expect(again.result).toMatchObject({ kind: 'top_up', status: 'succeeded', amountCents: 1234 });
    const same = await h.call(
      'hub_createStripeOrder',
      { amountCents: 1234, idempotencyKey: k },
      { token: u.token },
    );
    expect(same.result?.orderId).toBe(again.result?.orderId);
    const other = await h.call(
      'hub_createStripeOrder',
      { amountCents: 999, idempotencyKey: k },
      { token: u.token },
    );
    expect(other.error?.code).toBe(ERROR_CODES.IDEMPOTENCY_KEY_REUSED);
    expect(
      (await h.call('hub_getUserWalletOverview', {}, { token: u.token })).result?.amountCents,
    ).toBe(1234);
    const notice = await db
      .select()
      .from(notices)
      .where(and(eq(notices.accountId, u.accountId), eq(notices.type, 'deposit')));
    expect(notice).toHaveLength(1);
    await expectLedgerMatches(u.accountId);
  });

  it('a declined card fails the order and moves no money; 3-D Secure settles by poll without any webhook', async () => {
    const u = await user();
    await saveCard(u.token, '4000000000000341');
    const declined = await h.call(
      'hub_createStripeOrder',
      { amountCents: 2000, idempotencyKey: key() },
      { token: u.token },
    );
    expect(declined.result).toMatchObject({
      status: 'failed',
      isSettled: true,
      failureCode: 'generic_decline',
    });
    expect(await ledgerWalletCents(db, u.accountId)).toBe(0);

    const v = await user();
    await saveCard(v.token, '4000002500003155');
    const order = (
      await h.call(
        'hub_buyPackageByCard',
        { skuId: 'standard-100m', idempotencyKey: key() },
        { token: v.token },
      )
    ).result!;
    expect(order.status).toBe('requires_action');
    expect(order.clientSecret).toMatch(/^pi_.+_secret_/);
    const piId = order.clientSecret!.split('_secret_')[0]!;
    const confirm = await fetch(`${fake.url}/v1/payment_intents/${piId}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_secret: order.clientSecret!, key: fake.publishableKey }),
    });
    expect(confirm.status).toBe(200);
    const polled = await h.call('hub_polling', { orderId: order.orderId }, { token: v.token });
    expect(polled.result).toMatchObject({ status: 'succeeded', clientSecret: null });
    expect(polled.result?.purchaseId).toBeTruthy();
    await expectLedgerMatches(v.accountId);
  });

  it('webhooks: tampered, unsigned, stale and foreign events are refused; out-of-order ones cannot undo a payment', async () => {
    const u = await user();
    await saveCard(u.token, '4000002500003155');
    const order = (
      await h.call(
        'hub_createStripeOrder',
        { amountCents: 5000, idempotencyKey: key() },
        { token: u.token },
      )
    ).result!;
    const piId = order.clientSecret!.split('_secret_')[0]!;
    await fetch(`${fake.url}/v1/payment_intents/${piId}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_secret: order.clientSecret!, key: fake.publishableKey }),
    });
    const events = eventsOf(piId);
    const succeeded = events.find((e) => e.type === 'payment_intent.succeeded')!;

    // Tampered: the amount changed after signing.
    const tampered = succeeded.payload.replace('"amount":5000', '"amount":500000');
    expect((await webhook(tampered, fake.sign(succeeded.payload))).status).toBe(400);
    expect((await webhook(succeeded.payload)).status).toBe(400);
    expect((await webhook(succeeded.payload, 't=1,v1=deadbeef')).status).toBe(400);
    const stale = fake.sign(succeeded.payload, Math.floor(Date.now() / 1000) - 3600);
    expect((await webhook(succeeded.payload, stale)).status).toBe(400);
    expect((await webhook('x'.repeat(600 * 1024), 't=1,v1=00')).status).toBe(413);

    // Newest first, then an old "requires_action" and a forged-but-signed failure for the same PaymentIntent.
    for (const e of [...events].reverse()) expect((await deliver(e)).status).toBe(200);
    const failedLate = JSON.stringify({
      id: `evt_late_${key()}`,
      object: 'event',
      type: 'payment_intent.payment_failed',
      data: {
        object: {
          id: piId,
          object: 'payment_intent',
          status: 'requires_payment_method',
          metadata: { orderId: order.orderId },
        },
      },
    });
    expect((await webhook(failedLate, fake.sign(failedLate))).body.outcome).toBe('order_succeeded');
    // An event naming another account's order with a PaymentIntent that is not that order's changes nothing.
    const foreign = JSON.stringify({
      id: `evt_foreign_${key()}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      data: {
        object: { id: 'pi_forged', object: 'payment_intent', metadata: { orderId: order.orderId } },
      },
    });
    expect((await webhook(foreign, fake.sign(foreign))).body.outcome).toBe('ignored_other_intent');
    const polled = await h.call('hub_polling', { orderId: order.orderId }, { token: u.token });
    expect(polled.result?.status).toBe('succeeded');
    expect(await ledgerWalletCents(db, u.accountId)).toBe(5000);
    await expectLedgerMatches(u.accountId);
  });

  it('renews a package by card when it expires, once; a declined renewal turns auto-renew off with card_auto_scaling_failed', async () => {
    const u = await user();
    await saveCard(u.token, '4242424242424242');
    const order = (
      await h.call(
        'hub_buyPackageByCard',
        { skuId: 'standard-100m', idempotencyKey: key(), autoRenew: true },
        { token: u.token },
      )
    ).result!;
    expect(order.status).toBe('succeeded');
    const subs = (await h.call('hub_getSubscriptions', {}, { token: u.token })).result!.list;
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ channel: 'card', card: { last4: '4242' }, priceCents: 4900 });

    const v = await user();
    await saveCard(v.token, '4000000000000341');
    const w = await user();
    await saveCard(w.token, '4242424242424242');
    // v's package was bought from a good card, then pinned to a card that declines.
    const vOrder = (
      await h.call(
        'hub_createStripeOrder',
        { amountCents: 4900, idempotencyKey: key() },
        { token: v.token },
      )
    ).result!;
    expect(vOrder.status).toBe('failed');
    await db.transaction(async (tx) => {
      const { postMoney } = await import('../src/services/wallet/post-money');
      await postMoney(tx, {
        accountId: v.accountId,
        delta: 4900,
        kind: 'deposit',
        ref: key(),
        at: h.clock.now(),
      });
    });
    const vBuy = await h.call(
      'hub_buyPackage',
      { skuId: 'standard-100m', idempotencyKey: key(), autoRenew: true },
      { token: v.token },
    );
    expect(vBuy.ok).toBe(true);
    const vCard = (await cards(v.token))[0]!;
    const pinned = await h.call(
      'hub_setAutoRenewByCard',
      { packageId: vBuy.result!.package.id, byCard: true, cardId: vCard.id },
      { token: v.token },
    );
    expect(pinned.result).toMatchObject({ channel: 'card', card: { id: vCard.id } });
    const notMine = await h.call(
      'hub_setAutoRenewByCard',
      { packageId: vBuy.result!.package.id, byCard: true },
      { token: w.token },
    );
    expect(notMine.error?.code).toBe(ERROR_CODES.NOT_FOUND);

    h.clock.advance(31 * DAY);
    await sweepPackages(h.server.deps);
    await sweepPackages(h.server.deps);

    const renewals = await db
      .select()
      .from(purchases)
      .where(and(eq(purchases.accountId, u.accountId), eq(purchases.reason, 'auto_renew')));
    expect(renewals.map((p) => [p.channel, p.paidCents])).toEqual([['card', 4900]]);
    const [fresh] = await db
      .select()
      .from(ruPackages)
      .where(
        and(
          eq(ruPackages.accountId, u.accountId),
          eq(ruPackages.status, 'active'),
          eq(ruPackages.skuId, 'standard-100m'),
        ),
      );
    expect(fresh).toMatchObject({ autoRenew: true, renewChannel: 'card' });
    await expectLedgerMatches(u.accountId);

    const vRenewals = await db
      .select()
      .from(purchases)
      .where(and(eq(purchases.accountId, v.accountId), eq(purchases.reason, 'auto_renew')));
    expect(vRenewals).toEqual([]);
    const [vPkg] = await db
      .select()
      .from(ruPackages)
      .where(eq(ruPackages.id, vBuy.result!.package.id));
    expect(vPkg!.autoRenew).toBe(false);
    const vNotices = await db.select().from(notices).where(eq(notices.accountId, v.accountId));
    expect(
      vNotices.map((n) => n.type).filter((t) => t.includes('card_auto_scaling_failed')),
    ).toHaveLength(1);
    await expectLedgerMatches(v.accountId);
  });

  it('a renewal whose charge hit a Stripe outage is charged again by the next sweep, once; past the retry window it is left to the card order sweep', async () => {
    const renewalOrder = async (accountId: string) =>
      (
        await db
          .select()
          .from(cardOrders)
          .where(and(eq(cardOrders.accountId, accountId), eq(cardOrders.kind, 'renewal')))
      )[0];
    const intentsOf = (orderId: string) =>
      [...fake.paymentIntents.values()].filter(
        (pi) => (pi.metadata as Record<string, string>).orderId === orderId,
      );
    const renewalsOf = (accountId: string) =>
      db
        .select()
        .from(purchases)
        .where(and(eq(purchases.accountId, accountId), eq(purchases.reason, 'auto_renew')));
    /** A user whose package renews by card when it expires, and the renewal made while Stripe is down. */
    const renewalInOutage = async () => {
      const u = await userWithPackage(true);
      h.clock.advance(31 * DAY);
      // The sweep's card renewal of this package, alone (the sweep would renew other tests' packages too, which
      // would take the failures): the SDK tries three times, the order exists, nothing reached Stripe.
      const [pkg] = await db.select().from(ruPackages).where(eq(ruPackages.accountId, u.accountId));
      fake.failNext(3, '/v1/payment_intents');
      expect(
        await renewPackageByCard(h.server.deps, pkg!, findSku(h.server.deps.skus, pkg!.skuId)!),
      ).toEqual({ status: 'pending', failureCode: null });
      const order = await renewalOrder(u.accountId);
      expect(order).toMatchObject({ status: 'pending', paymentIntentId: null });
      expect(intentsOf(order!.id)).toEqual([]);
      return { u, order: order! };
    };

    // The next sweep charges it again under the same idempotency key: renewed once, with one PaymentIntent.
    const a = await renewalInOutage();
    await sweepPackages(h.server.deps);
    await sweepPackages(h.server.deps);
    expect(await renewalOrder(a.u.accountId)).toMatchObject({
      id: a.order.id,
      status: 'succeeded',
    });
    expect(intentsOf(a.order.id)).toHaveLength(1);
    expect((await renewalsOf(a.u.accountId)).map((p) => [p.channel, p.paidCents])).toEqual([
      ['card', 4900],
    ]);
    await expectLedgerMatches(a.u.accountId);

    // The card the first charge used is gone since (detached at Stripe): that charge may have reached Stripe, which
    // refuses its key with another card, so the order is only polled, and the renewal waits (for the card order
    // sweep) instead of failing as "no card".
    const c = await renewalInOutage();
    const detached = await fetch(
      `${fake.url}/v1/payment_methods/${c.order.paymentMethodId}/detach`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${fake.secretKey}` },
      },
    );
    expect(detached.status).toBe(200);
    await sweepPackages(h.server.deps);
    expect(await renewalOrder(c.u.accountId)).toMatchObject({
      status: 'pending',
      paymentIntentId: null,
    });
    expect(intentsOf(c.order.id)).toEqual([]);
    const packageOf = async (accountId: string) =>
      (
        await db
          .select()
          .from(ruPackages)
          .where(and(eq(ruPackages.accountId, accountId), eq(ruPackages.skuId, 'standard-100m')))
      )[0];
    const cPkg = await packageOf(c.u.accountId);
    expect(cPkg).toMatchObject({ autoRenew: true, renewedBy: null });

    // Still uncharged when the retry window has passed (Stripe keeps idempotency keys only about a day): not charged
    // again, so a first charge whose answer was lost cannot be doubled. The card order sweep fails it as not charged
    // at 24 hours, and the renewal fails as a declined one does: auto-renew off, the user told.
    const b = await renewalInOutage();
    h.clock.advance(CHARGE_RETRY_WINDOW_MS);
    await sweepPackages(h.server.deps);
    expect(await renewalOrder(b.u.accountId)).toMatchObject({
      status: 'pending',
      paymentIntentId: null,
    });
    expect(intentsOf(b.order.id)).toEqual([]);
    h.clock.advance(ORDER_HARD_LIMIT_MS - CHARGE_RETRY_WINDOW_MS);
    await sweepCardOrders(h.server.deps);
    expect(await renewalOrder(b.u.accountId)).toMatchObject({
      status: 'failed',
      failureCode: 'not_charged',
    });
    await sweepPackages(h.server.deps);
    expect(intentsOf(b.order.id)).toEqual([]);
    expect(await renewalsOf(b.u.accountId)).toEqual([]);
    expect((await packageOf(b.u.accountId))?.autoRenew).toBe(false);
    await expectLedgerMatches(b.u.accountId);
  });

  it('a card saved for one package renews it by card (setup_intent.succeeded); other accounts and bad ids are refused', async () => {
    const u = await user();
    await saveCard(u.token, '4242424242424242');
    const bought = await h.call(
      'hub_buyPackageByCard',
      { skuId: 'standard-100m', idempotencyKey: key() },
      { token: u.token },
    );
    const [pkg] = await db
      .select()
      .from(ruPackages)
      .where(and(eq(ruPackages.accountId, u.accountId), eq(ruPackages.skuId, 'standard-100m')));
    expect(bought.result?.status).toBe('succeeded');
    expect(pkg!.autoRenew).toBe(false);

    const other = await user();
    const gift = (await h.call('hub_getUserWalletOverview', {}, { token: other.token })).result!
      .packages[0]!;
    const refusals: [unknown, string, number][] = [
      [{ packageId: pkg!.id }, other.token, ERROR_CODES.NOT_FOUND],
      [{ packageId: gift.id }, other.token, ERROR_CODES.AUTO_RENEW_UNAVAILABLE],
      [{ packageId: 'not-a-uuid' }, u.token, ERROR_CODES.INVALID_PARAMS],
      [{}, u.token, ERROR_CODES.INVALID_PARAMS],
    ];
    for (const [params, token, code] of refusals) {
      const r = await h.call('hub_createAutoRenewStripeSetup', params as never, { token });
      expect(r.error?.code, JSON.stringify(params)).toBe(code);
      const s2 = await h.call(
        'hub_setAutoRenewByCard',
        { byCard: true, ...(params as object) } as never,
        { token },
      );
      expect(s2.error?.code, JSON.stringify(params)).toBe(code);
    }

    const setup = await h.call(
      'hub_createAutoRenewStripeSetup',
      { packageId: pkg!.id },
      { token: u.token },
    );
    const { setupIntentId } = setup.result!;
    await fake.confirmSetup(setup.result!, '5555555555554444');
    const event = fake.events.find(
      (e) => e.type === 'setup_intent.succeeded' && e.payload.includes(setupIntentId),
    )!;
    expect((await deliver(event)).body.outcome).toBe('card_saved_for_renewal');
    const subs = (await h.call('hub_getSubscriptions', {}, { token: u.token })).result!.list;
    expect(subs).toEqual([
      expect.objectContaining({
        packageId: pkg!.id,
        channel: 'card',
        card: expect.objectContaining({ brand: 'mastercard', last4: '4444' }),
      }),
    ]);
    expect((await h.call('hub_getSubscriptions', {}, { token: other.token })).result!.list).toEqual(
      [],
    );

    const cancel = await h.call(
      'hub_setUserAutoRenew',
      { packageId: pkg!.id, autoRenew: false },
      { token: u.token },
    );
    expect(cancel.result?.autoRenew).toBe(false);
    expect((await h.call('hub_getSubscriptions', {}, { token: u.token })).result!.list).toEqual([]);
  });

  it('a card saved for renewal after the account was disbanded turns nothing back on', async () => {
    const u = await userWithPackage(false);
    const [pkg] = await db
      .select()
      .from(ruPackages)
      .where(and(eq(ruPackages.accountId, u.accountId), eq(ruPackages.skuId, 'standard-100m')));
    const setup = await h.call(
      'hub_createAutoRenewStripeSetup',
      { packageId: pkg!.id },
      { token: u.token },
    );
    const { setupIntentId } = setup.result!;
    await fake.confirmSetup(setup.result!, '5555555555554444');
    // The account is disbanded (as a team's is, with auto-renew turned off) before Stripe's event arrives.
    await db
      .update(accounts)
      .set({ disbandedAt: new Date(h.clock.now()) })
      .where(eq(accounts.id, u.accountId));
    const event = fake.events.find(
      (e) => e.type === 'setup_intent.succeeded' && e.payload.includes(setupIntentId),
    )!;
    expect((await deliver(event)).body.outcome).toBe('card_saved');
    const [after] = await db.select().from(ruPackages).where(eq(ruPackages.id, pkg!.id));
    expect(after).toMatchObject({ autoRenew: false });
  });

  it('a card renewal that settles after auto-renew was turned off renews nothing: the payment stays in the wallet', async () => {
    const s = await h.signUp();
    const [row] = await db.select().from(users).where(eq(users.email, s.email));
    const u = { token: s.token, accountId: row!.personalAccountId };
    await saveCard(u.token, '4242424242424242');
    const bought = await h.call(
      'hub_buyPackageByCard',
      { skuId: 'standard-100m', idempotencyKey: key(), autoRenew: true },
      { token: u.token },
    );
    expect(bought.result?.status).toBe('succeeded');
    const [pkg] = await db
      .select()
      .from(ruPackages)
      .where(and(eq(ruPackages.accountId, u.accountId), eq(ruPackages.skuId, 'standard-100m')));
    expect(pkg).toMatchObject({ autoRenew: true, renewChannel: 'card' });
    const walletBefore = await ledgerWalletCents(db, u.accountId);

    // Stripe answers this account's off-session renewal charge with "processing"; the success comes later by webhook.
    const intents = h.server.deps.stripe!.client.paymentIntents;
    const create = intents.create.bind(intents);
    const spy = vi.spyOn(intents, 'create').mockImplementation(async (...args) => {
      const pi = await create(...args);
      return pi.metadata?.accountId === u.accountId
        ? { ...pi, status: 'processing', amount_received: 0 }
        : pi;
    });
    try {
      h.clock.advance(31 * DAY);
      await sweepPackages(h.server.deps);
    } finally {
      spy.mockRestore();
    }
    const [order] = await db
      .select()
      .from(cardOrders)
      .where(and(eq(cardOrders.accountId, u.accountId), eq(cardOrders.kind, 'renewal')));
    expect(order).toMatchObject({ status: 'pending', renewsPackageId: pkg!.id, amountCents: 4900 });

    // The user (signed in again: a month has passed) turns auto-renew off while the charge is in flight; then
    // Stripe says it succeeded.
    const login = await h.call('hub_login', { email: s.email, password: digest(s.password) });
    u.token = login.result!.token;
    const off = await h.call(
      'hub_setUserAutoRenew',
      { packageId: pkg!.id, autoRenew: false },
      { token: u.token },
    );
    expect(off.error).toBeUndefined();
    expect(off.result?.autoRenew).toBe(false);
    const succeeded = eventsOf(order!.paymentIntentId!).find(
      (e) => e.type === 'payment_intent.succeeded',
    )!;
    expect((await deliver(succeeded)).body.outcome).toBe('order_credited');
    expect((await deliver(succeeded)).body.outcome).toBe('duplicate');
    await sweepPackages(h.server.deps);

    const [settled] = await db.select().from(cardOrders).where(eq(cardOrders.id, order!.id));
    expect(settled).toMatchObject({
      status: 'credited',
      failureCode: 'auto_renew_turned_off',
      purchaseId: null,
    });
    const polled = await h.call('hub_polling', { orderId: order!.id }, { token: u.token });
    expect(polled.result).toMatchObject({ status: 'credited', isSettled: true });
    // No package bought, none renewing: the paid amount is in the wallet, once, and the ledger says so.
    const renewals = await db
      .select()
      .from(purchases)
      .where(and(eq(purchases.accountId, u.accountId), eq(purchases.reason, 'auto_renew')));
    expect(renewals).toEqual([]);
    const pkgs = await db
      .select()
      .from(ruPackages)
      .where(and(eq(ruPackages.accountId, u.accountId), eq(ruPackages.skuId, 'standard-100m')));
    expect(pkgs.map((p) => [p.id, p.status, p.autoRenew, p.renewedBy])).toEqual([
      [pkg!.id, 'expired', false, null],
    ]);
    expect(await ledgerWalletCents(db, u.accountId)).toBe(walletBefore + 4900);
    await expectLedgerMatches(u.accountId);
    const told = await db
      .select()
      .from(notices)
      .where(and(eq(notices.accountId, u.accountId), eq(notices.type, 'normal_warn')));
    expect(told.map((n) => n.title)).toEqual(['Card payment credited to the wallet']);
    expect(
      await db
        .select()
        .from(cardOrders)
        .where(and(eq(cardOrders.accountId, u.accountId), eq(cardOrders.kind, 'renewal'))),
    ).toHaveLength(1);
  });
});
