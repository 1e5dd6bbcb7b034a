/**
 * Card orders: a package bought by card (hub_buyPackageByCard), a wallet top-up (hub_createStripeOrder) and the
 * poll (hub_polling). An order row is written before Stripe is called (unique per account and request key), and
 * the PaymentIntent is created with the order id as Stripe's idempotency key: a retried request, a crash between
 * the two, or two tabs sending the same key all end in one charge.
 */
import {
  ERROR_CODES,
  type TCard,
  type TCardOrder,
  type TParams,
  type TResult,
  type TSku,
} from '@rpc/contract';
import { cardOrders, type TCardOrderDnTerms, type TCardOrderRow } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { RpcError } from '../../rpc/errors';
import { purchasableSku } from '../wallet/buy-package';
import { quoteSku } from '../wallet/price-quote';
import type { TWalletCaller } from '../wallet/wallet-caller';
import { callStripe, isCardError, requireStripe, type TCardDeps } from './card-deps';
import { isSettledStatus, toCardOrder } from './order-rows';
import { refreshOrder } from './refresh-order';
import { chooseCard, listSavedCards } from './saved-cards';
import { applyPaymentIntent, markOrderFailed } from './settle-order';

type TNewOrder = {
  accountId: string;
  userId: string | null;
  requestKey: string;
  kind: TCardOrderRow['kind'];
  amountCents: number;
  sku?: TSku;
  renewsPackageId?: string;
  useDiscount?: boolean;
  autoRenew?: boolean;
  /** dedicated node orders: the node's terms, and the node renewed */
  dnTerms?: TCardOrderDnTerms;
  nodeId?: string;
  cardId?: string | undefined;
  /** a renewal: charged without the buyer present */
  offSession?: boolean;
};

export async function skuFirstConfirmCard(
  deps: TCardDeps,
  caller: TWalletCaller,
  params: TParams<'hub_skuFirstConfirmCard'>,
): Promise<TResult<'hub_skuFirstConfirmCard'>> {
  requireStripe(deps);
  const sku = purchasableSku(deps, params.skuId);
  const { discount: _discount, ...quote } = await quoteSku(deps.db, {
    accountId: caller.accountId,
    sku,
    catalogueVersion: deps.skus.version,
    useDiscount: params.useDiscount,
    now: deps.clock.now(),
  });
  let card: TCard | null = null;
  try {
    card = (await chooseCard(deps, caller.accountId, undefined)).card;
  } catch (err) {
    if (!(err instanceof RpcError) || err.code !== ERROR_CODES.CARD_REQUIRED) throw err;
  }
  return {
    ...quote,
    // A card pays the whole price whatever the wallet holds; the wallet is untouched.
    walletAfterCents: quote.walletCents,
    canPay: card !== null && quote.payCents > 0,
    card: card && { id: card.id, brand: card.brand, last4: card.last4 },
  };
}

export async function buyPackageByCard(
  deps: TCardDeps,
  caller: TWalletCaller,
  params: TParams<'hub_buyPackageByCard'>,
): Promise<TResult<'hub_buyPackageByCard'>> {
  requireStripe(deps);
  const sku = purchasableSku(deps, params.skuId);
  const requestKey = `buy:${params.idempotencyKey}`;
  const earlier = await findOrder(deps, caller.accountId, requestKey);
  if (earlier) {
    if (earlier.kind !== 'package' || earlier.skuId !== sku.id)
      throw new RpcError(ERROR_CODES.IDEMPOTENCY_KEY_REUSED);
    return continueOrder(deps, earlier, params.cardId);
  }
  const quote = await quoteSku(deps.db, {
    accountId: caller.accountId,
    sku,
    catalogueVersion: deps.skus.version,
    useDiscount: params.useDiscount,
    now: deps.clock.now(),
  });
  if (params.expectedPayCents !== undefined && params.expectedPayCents !== quote.payCents)
    throw new RpcError(ERROR_CODES.PRICE_CHANGED);
  if (quote.payCents <= 0) throw new RpcError(ERROR_CODES.NOTHING_TO_PAY_BY_CARD);
  return placeOrder(deps, {
    accountId: caller.accountId,
    userId: caller.userId,
    requestKey,
    kind: 'package',
    amountCents: quote.payCents,
    sku,
    useDiscount: params.useDiscount,
    autoRenew: params.autoRenew && sku.canAutoRenew,
    cardId: params.cardId,
  });
}

export async function createStripeOrder(
  deps: TCardDeps,
  caller: TWalletCaller,
  params: TParams<'hub_createStripeOrder'>,
): Promise<TResult<'hub_createStripeOrder'>> {
  requireStripe(deps);
  const requestKey = `topup:${params.idempotencyKey}`;
  const earlier = await findOrder(deps, caller.accountId, requestKey);
  if (earlier) {
    if (earlier.kind !== 'top_up' || earlier.amountCents !== params.amountCents)
      throw new RpcError(ERROR_CODES.IDEMPOTENCY_KEY_REUSED);
    return continueOrder(deps, earlier, params.cardId);
  }
  return placeOrder(deps, {
    accountId: caller.accountId,
    userId: caller.userId,
    requestKey,
    kind: 'top_up',
    amountCents: params.amountCents,
    cardId: params.cardId,
  });
}

export async function pollOrder(
  deps: TCardDeps,
  caller: TWalletCaller,
  params: TParams<'hub_polling'>,
): Promise<TResult<'hub_polling'>> {
  const [row] = await deps.db
    .select()
    .from(cardOrders)
    .where(and(eq(cardOrders.id, params.orderId), eq(cardOrders.accountId, caller.accountId)));
  if (!row) throw new RpcError(ERROR_CODES.NOT_FOUND);
  const { paymentIntentId } = row;
  if (isSettledStatus(row.status) || !paymentIntentId || !deps.stripe) return toCardOrder(row);
  // Not settled yet: ask Stripe, so a lost or late webhook never leaves the buyer waiting.
  const { order, clientSecret } = await refreshOrder(deps, deps.stripe, {
    ...row,
    paymentIntentId,
  });
  return toCardOrder(order, clientSecret);
}

export async function findOrder(
  deps: TCardDeps,
  accountId: string,
  requestKey: string,
): Promise<TCardOrderRow | undefined> {
  const [row] = await deps.db
    .select()
    .from(cardOrders)
    .where(and(eq(cardOrders.accountId, accountId), eq(cardOrders.requestKey, requestKey)));
  return row;
}

/**
 * An order without a PaymentIntent is charged again only this long after it was placed. The retry reuses the
 * first charge's idempotency key, so Stripe answers it with the PaymentIntent the first one made, if any; Stripe
 * keeps keys for at least 24 hours, and past that a retry could charge a second time. Older orders are left to the
 * card order sweep, which looks for their PaymentIntent by metadata and fails them as not charged at 24 hours.
 */
export const CHARGE_RETRY_WINDOW_MS = 23 * 3_600_000;

/**
 * The order again (a retried request, or a renewal's next sweep): polled when it has a PaymentIntent or is settled,
 * else charged again within CHARGE_RETRY_WINDOW_MS (the first charge never reached Stripe, or its answer was lost).
 * `offSession` must be what the first charge sent. A first charge that recorded its card may have reached Stripe,
 * and Stripe refuses a key reused with other parameters: the retry pays with that card whatever `cardId` asks, and
 * when that card is no longer saved the order is only polled (the card order sweep finds its PaymentIntent, or
 * fails it as not charged at 24 hours).
 */
export async function continueOrder(
  deps: TCardDeps,
  row: TCardOrderRow,
  cardId: string | undefined,
  offSession = false,
): Promise<TCardOrder> {
  const poll = () =>
    pollOrder(deps, { accountId: row.accountId, userId: row.userId ?? '' }, { orderId: row.id });
  const mayCharge = deps.clock.now() - row.createdAt.getTime() < CHARGE_RETRY_WINDOW_MS;
  if (row.paymentIntentId || isSettledStatus(row.status) || !mayCharge) return poll();
  if (!row.paymentMethodId) return charge(deps, row, cardId, offSession);
  const saved = await listSavedCards(deps, row.accountId);
  const card = saved.list.find((c) => c.id === row.paymentMethodId);
  if (!card || !saved.customerId) return poll();
  return charge(deps, row, card.id, offSession, { customerId: saved.customerId, card });
}

export async function placeOrder(deps: TCardDeps, o: TNewOrder): Promise<TCardOrder> {
  // The card is checked before the order exists: no saved card leaves nothing behind.
  const chosen = await chooseCard(deps, o.accountId, o.cardId);
  const [inserted] = await deps.db
    .insert(cardOrders)
    .values({
      accountId: o.accountId,
      userId: o.userId,
      requestKey: o.requestKey,
      kind: o.kind,
      skuId: o.sku?.id ?? null,
      skuName: o.sku?.name ?? null,
      renewsPackageId: o.renewsPackageId ?? null,
      useDiscount: o.useDiscount ?? true,
      autoRenew: o.autoRenew ?? false,
      dnTerms: o.dnTerms ?? null,
      nodeId: o.nodeId ?? null,
      amountCents: o.amountCents,
      createdAt: new Date(deps.clock.now()),
    })
    .onConflictDoNothing({ target: [cardOrders.accountId, cardOrders.requestKey] })
    .returning();
  // Two requests with one key at once: the second finds the first's order.
  const row = inserted ?? (await findOrder(deps, o.accountId, o.requestKey))!;
  if (!inserted && (row.kind !== o.kind || row.amountCents !== o.amountCents))
    throw new RpcError(ERROR_CODES.IDEMPOTENCY_KEY_REUSED);
  return charge(deps, row, o.cardId, o.offSession ?? false, chosen);
}

/** Creates and confirms the order's PaymentIntent (once: Stripe's idempotency key is the order id). */
async function charge(
  deps: TCardDeps,
  row: TCardOrderRow,
  cardId: string | undefined,
  offSession: boolean,
  chosen?: { customerId: string; card: TCard },
): Promise<TCardOrder> {
  const stripe = requireStripe(deps);
  const { customerId, card } = chosen ?? (await chooseCard(deps, row.accountId, cardId));
  await deps.db
    .update(cardOrders)
    .set({ paymentMethodId: card.id, cardBrand: card.brand, cardLast4: card.last4 })
    .where(eq(cardOrders.id, row.id));
  let intent: Stripe.PaymentIntent;
  try {
    intent = await callStripe(deps, 'paymentIntents.create', () =>
      stripe.client.paymentIntents.create(
        {
          amount: row.amountCents,
          currency: 'usd',
          customer: customerId,
          payment_method: card.id,
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          confirm: true,
          ...(offSession ? { off_session: true } : {}),
          description: describeOrder(row),
          metadata: { orderId: row.id, accountId: row.accountId, kind: row.kind },
        },
        { idempotencyKey: `order:${row.id}` },
      ),
    );
  } catch (err) {
    if (!isCardError(err)) throw err;
    // Declined: Stripe answers the card error with the PaymentIntent it made, if any.
    const intentId = err.payment_intent?.id ?? null;
    if (intentId)
      await deps.db
        .update(cardOrders)
        .set({ paymentIntentId: intentId })
        .where(eq(cardOrders.id, row.id));
    const failed = await markOrderFailed(
      deps,
      row.id,
      err.decline_code ?? err.code ?? 'card_error',
    );
    return toCardOrder(failed);
  }
  await deps.db
    .update(cardOrders)
    .set({ paymentIntentId: intent.id })
    .where(eq(cardOrders.id, row.id));
  const { order, clientSecret } = await applyPaymentIntent(deps, row.id, intent);
  return toCardOrder(order, clientSecret);
}

/** What the buyer's card statement and Stripe's dashboard show for the order. */
function describeOrder(row: TCardOrderRow): string {
  switch (row.kind) {
    case 'top_up':
      return 'Wallet top-up';
    case 'dn_buy':
    case 'dn_renew': {
      const t = row.dnTerms;
      const what = t ? `${t.chain} ${t.nodeType} node, ${t.months} month(s)` : 'node';
      return `Dedicated ${what}${row.kind === 'dn_renew' ? ' renewal' : ''}`;
    }
    default:
      return `Package ${row.skuName?.en ?? row.skuId}`;
  }
}
