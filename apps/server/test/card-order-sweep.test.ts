/**
 * The card order sweep against the local fake Stripe: orders whose payment was still processing when the charge
 * answered, whose webhook never came (the fake queues events and nothing delivers them) and that nobody polls, are
 * settled by the sweep once the grace period is over, exactly once however many sweeps run; one Stripe failure does
 * not stop a pass; orders abandoned past the hard limit, missing at Stripe or never charged end as
 * docs/decisions/card-payments.md says.
 *
 * The tests run in order on one harness whose clock only moves forward; those that move it by a day or more come
 * last (the fake dates its PaymentIntents by the real clock, and the sweep looks for an order's PaymentIntent from a
 * day before the order).
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
  type TCardOrderRow,
  type TDatabase,
} from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startCardOrderSweep } from '../src/jobs/card-order-sweep';
import {
  ORDER_HARD_LIMIT_MS,
  ORDER_RECHECK_MAX_MS,
  ORDER_SWEEP_GRACE_MS,
  sweepCardOrders,
} from '../src/services/cards/sweep-card-orders';
import { ledgerWalletCents } from '../src/services/wallet/post-money';
import { sweepPackages } from '../src/services/wallet/sweep-packages';
import { TEST_DATABASES } from './helpers/databases';
import { startFakeStripe, type TFakeStripe } from './helpers/fake-stripe';
import { createHarness, digest, type THarness } from './helpers/harness';

const DAY = 86_400_000;
const key = () => randomUUID().replaceAll('-', '');

describe.each(TEST_DATABASES)('card order sweep on $name', ({ open }) => {
  let h: THarness;
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
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  const sweep = () => sweepCardOrders(h.server.deps);

  async function user(card = '4242424242424242') {
    const s = await h.signUp();
    const [u] = await db.select().from(users).where(eq(users.email, s.email));
    await saveCard(s.token, null, card);
    return { ...s, accountId: u!.personalAccountId };
  }

  /** A card saved at the (fake) Stripe for the personal account, or for the team `teamId`. */
  async function saveCard(token: string, teamId: string | null, card = '4242424242424242') {
    const setup = await h.call('hub_createStripeSetup', {}, { token, teamId });
    const res = await fake.confirmSetup(setup.result!, card);
    expect(res.status).toBe(200);
  }

  /**
   * Runs `place` while Stripe answers the account's charges with "processing" (the fake has in fact settled them,
   * as a card network would a little later); its webhook events stay queued, undelivered.
   */
  async function whileProcessing<T>(accountId: string, place: () => Promise<T>): Promise<T> {
    const intents = h.server.deps.stripe!.client.paymentIntents;
    const create = intents.create.bind(intents);
    const spy = vi.spyOn(intents, 'create').mockImplementation(async (...args) => {
      const pi = await create(...args);
      return pi.metadata?.accountId === accountId
        ? { ...pi, status: 'processing', amount_received: 0 }
        : pi;
    });
    try {
      return await place();
    } finally {
      spy.mockRestore();
    }
  }

  async function processingTopUp(u: { token: string; accountId: string }, amountCents = 2000) {
    const placed = await whileProcessing(u.accountId, () =>
      h.call('hub_createStripeOrder', { amountCents, idempotencyKey: key() }, { token: u.token }),
    );
    expect(placed.result).toMatchObject({ status: 'pending', isSettled: false });
    return order(placed.result!.orderId);
  }

  async function order(id: string): Promise<TCardOrderRow> {
    const [row] = await db.select().from(cardOrders).where(eq(cardOrders.id, id));
    return row!;
  }

  async function cardPayments(accountId: string) {
    return db
      .select()
      .from(moneyLedger)
      .where(and(eq(moneyLedger.accountId, accountId), eq(moneyLedger.kind, 'card_payment')));
  }

  async function expectLedgerMatches(accountId: string) {
    const [a] = await db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(a!.walletCents).toBe(await ledgerWalletCents(db, accountId));
  }

  it('credits a payment that succeeded at Stripe with no webhook and no poll, after the grace period and not before', async () => {
    const u = await user();
    const topUp = await processingTopUp(u);
    const placed = await whileProcessing(u.accountId, () =>
      h.call(
        'hub_buyPackageByCard',
        { skuId: 'standard-100m', idempotencyKey: key(), expectedPayCents: 4900 },
        { token: u.token },
      ),
    );
    expect(placed.result?.status).toBe('pending');
    const pkgOrder = await order(placed.result!.orderId);
    // Stripe has settled both; nobody has told the console.
    expect(fake.paymentIntents.get(topUp.paymentIntentId!)?.status).toBe('succeeded');
    expect(fake.pending.some((e) => e.payload.includes(topUp.paymentIntentId!))).toBe(true);

    await sweep();
    h.clock.advance(ORDER_SWEEP_GRACE_MS - 1000);
    await sweep();
    for (const o of [topUp, pkgOrder])
      expect(await order(o.id)).toMatchObject({ status: 'pending', checks: 0 });
    expect(await cardPayments(u.accountId)).toEqual([]);

    // The job: its first pass runs at start, and stop() waits for it.
    h.clock.advance(1000);
    const stop = startCardOrderSweep(h.server.deps, 3_600_000);
    await stop();
    expect(await order(topUp.id)).toMatchObject({ status: 'succeeded', checks: 1 });
    const bought = await order(pkgOrder.id);
    expect(bought.status).toBe('succeeded');
    expect(bought.purchaseId).toBeTruthy();
    const [purchase] = await db
      .select()
      .from(purchases)
      .where(eq(purchases.accountId, u.accountId));
    expect(purchase).toMatchObject({ id: bought.purchaseId, channel: 'card', paidCents: 4900 });
    expect((await cardPayments(u.accountId)).map((e) => e.delta).sort()).toEqual([2000, 4900]);
    expect(await ledgerWalletCents(db, u.accountId)).toBe(2000);
    await expectLedgerMatches(u.accountId);
    const polled = await h.call('hub_polling', { orderId: topUp.id }, { token: u.token });
    expect(polled.result).toMatchObject({ status: 'succeeded', isSettled: true });
  });

  it('buys nothing for a team disbanded while its card payment was processing: the money stays in its wallet', async () => {
    const owner = await h.signUp();
    const created = await h.call(
      'hub_createTeam',
      { teamName: 'Card team' },
      { token: owner.token },
    );
    const teamId = created.result!.teamId;
    await saveCard(owner.token, teamId);
    const placed = await whileProcessing(teamId, () =>
      h.call(
        'hub_buyPackageByCard',
        { skuId: 'standard-100m', idempotencyKey: key(), expectedPayCents: 4900 },
        { token: owner.token, teamId },
      ),
    );
    expect(placed.result?.status).toBe('pending');
    const pkgOrder = await order(placed.result!.orderId);
    expect(pkgOrder.accountId).toBe(teamId);
    const gone = await h.call('hub_deleteTeam', { teamId }, { token: owner.token });
    expect(gone.error).toBeUndefined();

    h.clock.advance(ORDER_SWEEP_GRACE_MS);
    await sweep();
    expect(await order(pkgOrder.id)).toMatchObject({
      status: 'credited',
      failureCode: 'account_disbanded',
      purchaseId: null,
    });
    expect(await db.select().from(ruPackages).where(eq(ruPackages.accountId, teamId))).toEqual([]);
    expect(await db.select().from(purchases).where(eq(purchases.accountId, teamId))).toEqual([]);
    // In the team's wallet, where the disbanded-team sweep finds it and moves it to the owner.
    expect(await ledgerWalletCents(db, teamId)).toBe(4900);
    await expectLedgerMatches(teamId);
  });

  it('marks an order failed when Stripe says its payment failed', async () => {
    const u = await user();
    const o = await processingTopUp(u);
    // The card network declined it after all.
    Object.assign(fake.paymentIntents.get(o.paymentIntentId!)!, {
      status: 'requires_payment_method',
      amount_received: 0,
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
      },
    });
    h.clock.advance(ORDER_SWEEP_GRACE_MS);
    await sweep();
    expect(await order(o.id)).toMatchObject({
      status: 'failed',
      failureCode: 'insufficient_funds',
    });
    expect(await cardPayments(u.accountId)).toEqual([]);
    expect(await ledgerWalletCents(db, u.accountId)).toBe(0);
  });

  it('credits once however many sweeps run, one after the other or at the same time', async () => {
    const u = await user();
    const v = await user();
    const first = await processingTopUp(u, 1500);
    const second = await processingTopUp(v, 2500);
    h.clock.advance(ORDER_SWEEP_GRACE_MS);
    const intents = h.server.deps.stripe!.client.paymentIntents;
    const retrieve = vi.spyOn(intents, 'retrieve');
    let asked: string[];
    try {
      await Promise.all([sweep(), sweep(), sweep()]);
      await sweep();
      h.clock.advance(ORDER_RECHECK_MAX_MS);
      await sweep();
      asked = retrieve.mock.calls.map(([id]) => id);
    } finally {
      retrieve.mockRestore();
    }
    for (const [o, who, cents] of [
      [first, u, 1500],
      [second, v, 2500],
    ] as const) {
      expect(await order(o.id)).toMatchObject({ status: 'succeeded', checks: 1 });
      expect((await cardPayments(who.accountId)).map((e) => [e.delta, e.ref])).toEqual([
        [cents, o.paymentIntentId],
      ]);
      expect(await ledgerWalletCents(db, who.accountId)).toBe(cents);
      await expectLedgerMatches(who.accountId);
      // Claimed by one sweep: Stripe was asked once.
      expect(asked.filter((id) => id === o.paymentIntentId)).toHaveLength(1);
    }
    const deposits = await db
      .select()
      .from(notices)
      .where(and(eq(notices.accountId, u.accountId), eq(notices.type, 'deposit')));
    expect(deposits).toHaveLength(1);
  });

  it('a Stripe failure on one order does not stop the others, and the order is asked about again next pass', async () => {
    const u = await user();
    const v = await user();
    const older = await processingTopUp(u, 1100);
    h.clock.advance(1000);
    const newer = await processingTopUp(v, 1200);
    h.clock.advance(ORDER_SWEEP_GRACE_MS);
    // Stripe answers 500 to everything about the older order's PaymentIntent (the SDK tries three times).
    fake.failNext(3, `/v1/payment_intents/${older.paymentIntentId}`);
    const r = await sweep();
    expect(r.errors).toBeGreaterThanOrEqual(1);
    expect(await order(older.id)).toMatchObject({ status: 'pending' });
    expect(await order(newer.id)).toMatchObject({ status: 'succeeded' });
    // An outage is nobody's fault: the order is due again on the very next pass.
    h.clock.advance(60_000);
    await sweep();
    expect(await order(older.id)).toMatchObject({ status: 'succeeded' });
    expect(await ledgerWalletCents(db, u.accountId)).toBe(1100);
    expect(await ledgerWalletCents(db, v.accountId)).toBe(1200);
  });

  it('finds a charge whose answer was lost by its order id at Stripe; an order that never reached Stripe fails after the hard limit', async () => {
    const u = await user();
    // The charge reaches Stripe (and succeeds) but the answer never comes back: the order has no PaymentIntent id.
    const intents = h.server.deps.stripe!.client.paymentIntents;
    const create = intents.create.bind(intents);
    const spy = vi.spyOn(intents, 'create').mockImplementation(async (...args) => {
      await create(...args);
      throw Object.assign(new Error('socket hang up'), { type: 'StripeConnectionError' });
    });
    const lost = await h
      .call(
        'hub_createStripeOrder',
        { amountCents: 3000, idempotencyKey: key() },
        { token: u.token },
      )
      .finally(() => spy.mockRestore());
    expect(lost.error?.code).toBe(ERROR_CODES.CARD_PAYMENT_UNAVAILABLE);
    const [lostOrder] = await db
      .select()
      .from(cardOrders)
      .where(eq(cardOrders.accountId, u.accountId));
    expect(lostOrder).toMatchObject({ status: 'pending', paymentIntentId: null });

    // The charge never reaches Stripe at all (down for all three tries).
    const v = await user();
    fake.failNext(3, '/v1/payment_intents');
    const down = await h.call(
      'hub_createStripeOrder',
      { amountCents: 3000, idempotencyKey: key() },
      { token: v.token },
    );
    expect(down.error?.code).toBe(ERROR_CODES.CARD_PAYMENT_UNAVAILABLE);
    const [downOrder] = await db
      .select()
      .from(cardOrders)
      .where(eq(cardOrders.accountId, v.accountId));

    h.clock.advance(ORDER_SWEEP_GRACE_MS);
    await sweep();
    const found = await order(lostOrder!.id);
    expect(found.status).toBe('succeeded');
    expect(found.paymentIntentId).toMatch(/^pi_/);
    expect(fake.paymentIntents.get(found.paymentIntentId!)?.metadata).toMatchObject({
      orderId: lostOrder!.id,
    });
    expect(await ledgerWalletCents(db, u.accountId)).toBe(3000);
    await expectLedgerMatches(u.accountId);
    // Nothing at Stripe for the other: left open (a retry of the same request would still charge it once)...
    expect(await order(downOrder!.id)).toMatchObject({ status: 'pending', paymentIntentId: null });
    // ...until the hard limit, when it fails: nothing was taken.
    h.clock.advance(ORDER_HARD_LIMIT_MS);
    await sweep();
    expect(await order(downOrder!.id)).toMatchObject({
      status: 'failed',
      failureCode: 'not_charged',
    });
    expect(await ledgerWalletCents(db, v.accountId)).toBe(0);
  });

  it('a 3-D Secure left unfinished stays open until the hard limit, then is canceled at Stripe and fails', async () => {
    const u = await user('4000002500003155');
    const placed = await h.call(
      'hub_buyPackageByCard',
      { skuId: 'standard-100m', idempotencyKey: key() },
      { token: u.token },
    );
    expect(placed.result?.status).toBe('requires_action');
    const o = await order(placed.result!.orderId);
    h.clock.advance(ORDER_SWEEP_GRACE_MS);
    await sweep();
    // Stripe still waits for the buyer: so does the order (the sweep invents nothing).
    expect(await order(o.id)).toMatchObject({ status: 'requires_action', checks: 1 });
    expect(fake.paymentIntents.get(o.paymentIntentId!)?.status).toBe('requires_action');

    h.clock.advance(ORDER_HARD_LIMIT_MS);
    await sweep();
    expect(fake.paymentIntents.get(o.paymentIntentId!)).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'abandoned',
    });
    expect(await order(o.id)).toMatchObject({ status: 'failed', failureCode: 'canceled' });
    // A 3-D Secure finished now cannot charge the card any more.
    const late = await fetch(`${fake.url}/v1/payment_intents/${o.paymentIntentId}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_secret: fake.paymentIntents.get(o.paymentIntentId!)!.client_secret as string,
        key: fake.publishableKey,
      }),
    });
    expect(((await late.json()) as Stripe.PaymentIntent).status).not.toBe('succeeded');
    expect(await cardPayments(u.accountId)).toEqual([]);
  });

  it('an order whose PaymentIntent Stripe does not know stays open, even past the hard limit, until Stripe answers', async () => {
    const u = await user();
    const o = await processingTopUp(u, 1700);
    // As when STRIPE_SECRET_KEY was changed to another account: the PaymentIntent is not found.
    const kept = fake.paymentIntents.get(o.paymentIntentId!)!;
    fake.paymentIntents.delete(o.paymentIntentId!);
    h.clock.advance(ORDER_SWEEP_GRACE_MS);
    expect((await sweep()).errors).toBeGreaterThanOrEqual(1);
    expect(await order(o.id)).toMatchObject({ status: 'pending', checks: 1 });
    h.clock.advance(ORDER_HARD_LIMIT_MS);
    await sweep();
    expect(await order(o.id)).toMatchObject({ status: 'pending', checks: 2 });
    // The right key is back: the payment is credited.
    fake.paymentIntents.set(o.paymentIntentId!, kept);
    h.clock.advance(ORDER_RECHECK_MAX_MS);
    await sweep();
    expect(await order(o.id)).toMatchObject({ status: 'succeeded' });
    expect(await ledgerWalletCents(db, u.accountId)).toBe(1700);
  });

  it('a renewal settling by the sweep after auto-renew was turned off is credited, not renewed', async () => {
    const u = await user();
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

    h.clock.advance(31 * DAY);
    await whileProcessing(u.accountId, () => sweepPackages(h.server.deps));
    const [renewal] = await db
      .select()
      .from(cardOrders)
      .where(and(eq(cardOrders.accountId, u.accountId), eq(cardOrders.kind, 'renewal')));
    expect(renewal).toMatchObject({ status: 'pending', renewsPackageId: pkg!.id });

    // Auto-renew goes off while the charge is processing; the package sweep no longer looks at the order.
    const login = await h.call('hub_login', { email: u.email, password: digest(u.password) });
    const off = await h.call(
      'hub_setUserAutoRenew',
      { packageId: pkg!.id, autoRenew: false },
      { token: login.result!.token },
    );
    expect(off.result?.autoRenew).toBe(false);
    h.clock.advance(ORDER_SWEEP_GRACE_MS);
    await sweepPackages(h.server.deps);
    expect(await order(renewal!.id)).toMatchObject({ status: 'pending' });

    await sweep();
    expect(await order(renewal!.id)).toMatchObject({
      status: 'credited',
      failureCode: 'auto_renew_turned_off',
      purchaseId: null,
    });
    const renewals = await db
      .select()
      .from(purchases)
      .where(and(eq(purchases.accountId, u.accountId), eq(purchases.reason, 'auto_renew')));
    expect(renewals).toEqual([]);
    expect(await ledgerWalletCents(db, u.accountId)).toBe(walletBefore + 4900);
    await expectLedgerMatches(u.accountId);
    const told = await db
      .select()
      .from(notices)
      .where(and(eq(notices.accountId, u.accountId), eq(notices.type, 'normal_warn')));
    expect(told.map((n) => n.title)).toEqual(['Card payment credited to the wallet']);
  });
});
