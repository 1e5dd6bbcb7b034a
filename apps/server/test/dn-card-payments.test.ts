/**
 * Dedicated nodes paid by card (issue 15) against the local fake Stripe (test/helpers/fake-stripe.ts), on each
 * database: a purchase and a renewal by card leave the same rows as the wallet path (node, order with channel card,
 * ledger card_payment then dn_purchase / dn_renewal, invoice), one key is one charge and one node (replays and
 * concurrent requests), 3-D Secure settles by poll, a decline writes nothing, a node that can no longer be had after
 * the payment leaves the money in the wallet (credited); invoices of node orders, and node spending in the monthly
 * spend figure.
 */
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, addMonthsUtc, dnPriceCents, type TDnNodeType } from '@rpc/contract';
import {
  accounts,
  cardOrders,
  dedicatedNodeOrders,
  dedicatedNodes,
  invoices,
  moneyLedger,
  notices,
  users,
  type TDatabase,
} from '@rpc/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerWalletCents, postMoney } from '../src/services/wallet/post-money';
import { TEST_DATABASES } from './helpers/databases';
import { startFakeStripe, type TFakeStripe } from './helpers/fake-stripe';
import { createHarness, type THarness } from './helpers/harness';

const DAY = 86_400_000;
const key = () => randomUUID().replaceAll('-', '');
const CARD_OK = '4242424242424242';
const CARD_3DS = '4000002500003155';
const CARD_DECLINED = '4000000000000341';

describe.each(TEST_DATABASES)('dedicated nodes by card on $name', ({ open }) => {
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

  async function user() {
    const s = await h.signUp();
    const [u] = await db.select().from(users).where(eq(users.email, s.email));
    return { token: s.token, accountId: u!.personalAccountId };
  }

  /** What the browser does with Stripe.js: confirm a SetupIntent with the card's number. */
  async function saveCard(token: string, number: string) {
    const setup = await h.call('hub_createStripeSetup', {}, { token });
    const res = await fake.confirmSetup(setup.result!, number);
    expect(res.status).toBe(200);
  }

  /** The 3-D Secure step the browser does with Stripe.js. */
  async function authenticate(clientSecret: string) {
    const piId = clientSecret.split('_secret_')[0]!;
    const res = await fetch(`${fake.url}/v1/payment_intents/${piId}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_secret: clientSecret, key: fake.publishableKey }),
    });
    expect(res.status).toBe(200);
  }

  function price(nodeType: TDnNodeType, months: number): number {
    const c = h.server.deps.dnSkus;
    const monthly = c.chains
      .find((x) => x.id === 'localnet')!
      .nodeTypes.find((t) => t.type === nodeType)!.monthlyCents;
    return dnPriceCents(
      monthly,
      months,
      c.periods.find((p) => p.months === months)!.discountPercent,
    );
  }

  function terms(months = 1, nodeType: TDnNodeType = 'full') {
    return {
      chain: 'localnet',
      nodeType,
      region: 'local',
      months,
      idempotencyKey: key(),
      expectedCents: price(nodeType, months),
    };
  }

  /** The account's money ledger entries as [kind, delta], sorted by kind (one moment of the test clock wrote them). */
  const ledgerOf = async (accountId: string) =>
    (
      await db
        .select({ kind: moneyLedger.kind, delta: moneyLedger.delta })
        .from(moneyLedger)
        .where(eq(moneyLedger.accountId, accountId))
    )
      .map((r) => [r.kind, r.delta])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));

  async function expectLedgerTrue(accountId: string) {
    const [a] = await db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(a!.walletCents).toBe(await ledgerWalletCents(db, accountId));
    expect(a!.walletCents).toBeGreaterThanOrEqual(0);
  }

  const nodesOf = (accountId: string) =>
    db.select().from(dedicatedNodes).where(eq(dedicatedNodes.accountId, accountId));

  it('a card pays the whole node even when the wallet is in pay-as-you-go arrears', async () => {
    const u = await user();
    await saveCard(u.token, CARD_OK);
    await db.transaction((tx) =>
      postMoney(tx, {
        accountId: u.accountId,
        delta: -1,
        kind: 'adjustment',
        ref: randomUUID(),
        at: h.clock.now(),
      }),
    );
    const bought = await h.call('hub_buyDnNodeByCard', terms(1), { token: u.token });
    expect(bought.result, JSON.stringify(bought.error)).toMatchObject({
      status: 'succeeded',
      amountCents: price('full', 1),
    });
    expect(bought.result!.nodeId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await nodesOf(u.accountId)).toHaveLength(1);
    // The arrears are what they were.
    const [a] = await db.select().from(accounts).where(eq(accounts.id, u.accountId));
    expect(a!.walletCents).toBe(-1);
    expect(a!.walletCents).toBe(await ledgerWalletCents(db, u.accountId));
  });

  it('buys a node by card: the same rows as the wallet path, an invoice, and one node per key however often it is sent', async () => {
    const u = await user();
    await saveCard(u.token, CARD_OK);
    const params = terms(3);
    const first = await h.call('hub_buyDnNodeByCard', params, { token: u.token });
    expect(first.result).toMatchObject({
      kind: 'dn_buy',
      status: 'succeeded',
      isSettled: true,
      amountCents: price('full', 3),
      card: { brand: 'visa', last4: '4242' },
    });
    const nodeId = first.result!.nodeId!;
    expect(nodeId).toMatch(/^[0-9a-f-]{36}$/);

    // Sent again, alone and five times at once: the same order, one node, one charge.
    const again = await Promise.all(
      Array.from({ length: 5 }, () => h.call('hub_buyDnNodeByCard', params, { token: u.token })),
    );
    for (const r of again)
      expect(r.result).toMatchObject({ orderId: first.result!.orderId, nodeId });
    const charges = [...fake.paymentIntents.values()].filter(
      (pi) =>
        (pi.metadata as Record<string, string> | undefined)?.orderId === first.result!.orderId,
    );
    expect(charges).toHaveLength(1);

    const nodes = await nodesOf(u.accountId);
    expect(nodes.map((n) => [n.id, n.status, n.months])).toEqual([[nodeId, 'pending', 3]]);
    const [order] = await db
      .select()
      .from(dedicatedNodeOrders)
      .where(eq(dedicatedNodeOrders.nodeId, nodeId));
    expect(order).toMatchObject({ kind: 'buy', channel: 'card', priceCents: price('full', 3) });
    const [row] = await db
      .select()
      .from(cardOrders)
      .where(eq(cardOrders.id, first.result!.orderId));
    expect(row).toMatchObject({ nodeId, dnOrderId: order!.id, status: 'succeeded' });
    // The payment credited, then spent by the order: the wallet is where it was.
    expect(await ledgerOf(u.accountId)).toEqual([
      ['card_payment', price('full', 3)],
      ['dn_purchase', -price('full', 3)],
    ]);
    await expectLedgerTrue(u.accountId);

    // The node's invoice: months at the monthly price, the period's discount, what the card paid.
    const list = await h.call('hub_getUserInvoice', { page: 1, perPage: 10 }, { token: u.token });
    expect(list.result?.list).toHaveLength(1);
    const inv = list.result!.list[0]!;
    expect(inv).toMatchObject({
      channel: 'card',
      purchaseId: null,
      dnOrderId: order!.id,
      totalCents: price('full', 3),
    });
    expect(inv.itemName.en).toMatch(/^Dedicated full node: Localnet/);
    const view = await h.call('hub_getInvoiceView', { invoiceId: inv.id }, { token: u.token });
    expect(view.result?.lines).toEqual([
      {
        skuId: 'dn:localnet:full:local',
        name: inv.itemName,
        ru: 0,
        quantity: 3,
        unitCents: 500,
        amountCents: 1500,
      },
    ]);
    expect(view.result!.subtotalCents - view.result!.discountCents).toBe(view.result!.totalCents);

    // The view shows the node with its order history; polling the order answers the same.
    const polled = await h.call(
      'hub_polling',
      { orderId: first.result!.orderId },
      { token: u.token },
    );
    expect(polled.result).toMatchObject({ kind: 'dn_buy', nodeId, status: 'succeeded' });
    // Node spending counts in the month's spend.
    const spend = await h.call('hub_getSpendLimits', {}, { token: u.token });
    expect(spend.result?.month.centsSpent).toBe(price('full', 3));
  });

  it('3-D Secure: no node until the buyer authenticates; then the poll settles it once', async () => {
    const u = await user();
    await saveCard(u.token, CARD_3DS);
    const order = (await h.call('hub_buyDnNodeByCard', terms(), { token: u.token })).result!;
    expect(order).toMatchObject({ status: 'requires_action', nodeId: null, isSettled: false });
    expect(await nodesOf(u.accountId)).toEqual([]);
    await authenticate(order.clientSecret!);
    const polls = await Promise.all(
      Array.from({ length: 3 }, () =>
        h.call('hub_polling', { orderId: order.orderId }, { token: u.token }),
      ),
    );
    for (const p of polls) expect(p.result?.status).toBe('succeeded');
    const nodes = await nodesOf(u.accountId);
    expect(nodes).toHaveLength(1);
    expect(polls[0]!.result?.nodeId).toBe(nodes[0]!.id);
    await expectLedgerTrue(u.accountId);
  });

  it('a declined card writes no node, no order and moves no money', async () => {
    const u = await user();
    await saveCard(u.token, CARD_DECLINED);
    const r = await h.call('hub_buyDnNodeByCard', terms(), { token: u.token });
    expect(r.result).toMatchObject({ status: 'failed', isSettled: true, nodeId: null });
    expect(await nodesOf(u.accountId)).toEqual([]);
    expect(await ledgerOf(u.accountId)).toEqual([]);
  });

  it('renews by card; refuses what the wallet path refuses, before any charge', async () => {
    const u = await user();
    const other = await user();
    await saveCard(u.token, CARD_OK);
    await saveCard(other.token, CARD_OK);
    const bought = (await h.call('hub_buyDnNodeByCard', terms(), { token: u.token })).result!;
    const nodeId = bought.nodeId!;
    const theirs = (await h.call('hub_buyDnNodeByCard', terms(), { token: other.token })).result!;
    const [before] = await db.select().from(dedicatedNodes).where(eq(dedicatedNodes.id, nodeId));

    const renewParams = {
      nodeId,
      months: 6,
      idempotencyKey: key(),
      expectedCents: price('full', 6),
    };
    const renewed = await h.call('hub_renewDnNodeByCard', renewParams, { token: u.token });
    expect(renewed.result).toMatchObject({ kind: 'dn_renew', status: 'succeeded', nodeId });
    const [after] = await db.select().from(dedicatedNodes).where(eq(dedicatedNodes.id, nodeId));
    expect(after!.expiresAt.getTime()).toBe(addMonthsUtc(before!.expiresAt.getTime(), 6));
    expect(after!.months).toBe(7);
    expect(
      (await h.call('hub_renewDnNodeByCard', renewParams, { token: u.token })).result?.orderId,
    ).toBe(renewed.result!.orderId);

    const chargesBefore = fake.paymentIntents.size;
    const refusals: Array<[string, string, Record<string, unknown>, number]> = [
      [
        'another account’s node',
        'hub_renewDnNodeByCard',
        { ...renewParams, nodeId: theirs.nodeId, idempotencyKey: key() },
        ERROR_CODES.NOT_FOUND,
      ],
      [
        'unknown node',
        'hub_renewDnNodeByCard',
        { ...renewParams, nodeId: randomUUID(), idempotencyKey: key() },
        ERROR_CODES.NOT_FOUND,
      ],
      [
        'renewal at a price not seen',
        'hub_renewDnNodeByCard',
        { ...renewParams, expectedCents: 1, idempotencyKey: key() },
        ERROR_CODES.PRICE_CHANGED,
      ],
      [
        'renewal period not sold',
        'hub_renewDnNodeByCard',
        { ...renewParams, months: 2, idempotencyKey: key() },
        ERROR_CODES.DN_PERIOD_UNKNOWN,
      ],
      [
        'the renewal key for another node',
        'hub_renewDnNodeByCard',
        { ...renewParams, months: 1, expectedCents: price('full', 1) },
        ERROR_CODES.IDEMPOTENCY_KEY_REUSED,
      ],
      [
        'purchase at a price not seen',
        'hub_buyDnNodeByCard',
        { ...terms(), expectedCents: 499 },
        ERROR_CODES.PRICE_CHANGED,
      ],
      [
        'purchase period not sold',
        'hub_buyDnNodeByCard',
        { ...terms(), months: 2 },
        ERROR_CODES.DN_PERIOD_UNKNOWN,
      ],
      [
        'a chain this server cannot run',
        'hub_buyDnNodeByCard',
        { ...terms(), chain: 'ethereum', region: 'us-east', expectedCents: 49900 },
        ERROR_CODES.DN_CHAIN_NOT_PROVISIONABLE,
      ],
      [
        'unknown chain',
        'hub_buyDnNodeByCard',
        { ...terms(), chain: 'no-such-chain' },
        ERROR_CODES.DN_CHAIN_UNKNOWN,
      ],
      [
        'a card of someone else',
        'hub_buyDnNodeByCard',
        { ...terms(), cardId: 'pm_notmine' },
        ERROR_CODES.NOT_FOUND,
      ],
      [
        'malformed node id',
        'hub_renewDnNodeByCard',
        { ...renewParams, nodeId: '../x' },
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'oversize idempotency key',
        'hub_buyDnNodeByCard',
        { ...terms(), idempotencyKey: 'k'.repeat(10_000) },
        ERROR_CODES.INVALID_PARAMS,
      ],
      [
        'months as a string',
        'hub_buyDnNodeByCard',
        { ...terms(), months: '1' },
        ERROR_CODES.INVALID_PARAMS,
      ],
    ];
    const wrong: string[] = [];
    for (const [label, method, params, code] of refusals) {
      const r = await h.raw({ method, params, id: 1 }, { token: u.token });
      if (r.error?.code !== code) wrong.push(`${label}: ${JSON.stringify(r.error ?? r.result)}`);
      if (
        JSON.stringify(r).includes(theirs.nodeId!) &&
        !JSON.stringify(params).includes(theirs.nodeId!)
      )
        wrong.push(`${label} carries their node`);
    }
    expect(wrong).toEqual([]);
    expect(fake.paymentIntents.size).toBe(chargesBefore);

    // No saved card: refused, nothing written.
    const bare = await user();
    const none = await h.call('hub_buyDnNodeByCard', terms(), { token: bare.token });
    expect(none.error?.code).toBe(ERROR_CODES.CARD_REQUIRED);
    expect(
      await db.select().from(cardOrders).where(eq(cardOrders.accountId, bare.accountId)),
    ).toEqual([]);
    await expectLedgerTrue(u.accountId);
  });

  it('a payment that can no longer renew the node (its data deleted meanwhile) stays in the wallet', async () => {
    const u = await user();
    await saveCard(u.token, CARD_3DS);
    await db.transaction((tx) =>
      postMoney(tx, {
        accountId: u.accountId,
        delta: 10_000,
        kind: 'deposit',
        ref: randomUUID(),
        at: h.clock.now(),
      }),
    );
    const bought = await h.call('hub_buyDnNodeByWallet', terms(), { token: u.token });
    const nodeId = bought.result!.node.id;
    const order = (
      await h.call(
        'hub_renewDnNodeByCard',
        { nodeId, months: 1, idempotencyKey: key(), expectedCents: price('full', 1) },
        { token: u.token },
      )
    ).result!;
    expect(order.status).toBe('requires_action');
    // While the buyer authenticates, the node passes its grace period and its data is deleted.
    await db
      .update(dedicatedNodes)
      .set({
        status: 'expired',
        expiresAt: new Date(h.clock.now() - 10 * DAY),
        dataDeletedAt: new Date(h.clock.now()),
      })
      .where(eq(dedicatedNodes.id, nodeId));
    await authenticate(order.clientSecret!);
    const polled = await h.call('hub_polling', { orderId: order.orderId }, { token: u.token });
    expect(polled.result).toMatchObject({
      status: 'credited',
      isSettled: true,
      failureCode: 'node_not_applied_not_renewable',
    });
    expect(await ledgerOf(u.accountId)).toEqual([
      ['card_payment', price('full', 1)],
      ['deposit', 10_000],
      ['dn_purchase', -price('full', 1)],
    ]);
    await expectLedgerTrue(u.accountId);
    // The wallet purchase has its invoice (channel crypto: paid from the balance); the credited payment none.
    const invs = await db.select().from(invoices).where(eq(invoices.accountId, u.accountId));
    expect(invs.map((i) => [i.channel, i.totalCents, i.purchaseId])).toEqual([
      ['crypto', price('full', 1), null],
    ]);
    const told = await db.select().from(notices).where(eq(notices.accountId, u.accountId));
    expect(told.map((n) => n.content).join('\n')).toContain('could not renew the dedicated node');
  });
});
