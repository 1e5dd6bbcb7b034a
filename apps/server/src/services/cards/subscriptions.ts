/**
 * Auto-renewals (hub_getSubscriptions, hub_setAutoRenewByCard, hub_createAutoRenewStripeSetup) and the renewal of a
 * package by card, which the package sweep calls: an off-session charge of the pinned card (else the default), as
 * a card order keyed renew:<package id>, so a sweep run twice charges once.
 */
import { ERROR_CODES, type TCard, type TParams, type TResult, type TSku } from '@rpc/contract';
import { cardOrders, ruPackages, type TRuPackageRow } from '@rpc/db';
import { and, asc, eq } from 'drizzle-orm';
import { RpcError } from '../../rpc/errors';
import { findSku } from '../wallet/sku-catalogue';
import type { TWalletCaller } from '../wallet/wallet-caller';
import { requireStripe, type TCardDeps } from './card-deps';
import { continueOrder, placeOrder } from './card-orders';
import { chooseCard, createStripeSetup, listSavedCards } from './saved-cards';

type TSubscription = TResult<'hub_getSubscriptions'>['list'][number];

export async function getSubscriptions(
  deps: TCardDeps,
  caller: TWalletCaller,
): Promise<TResult<'hub_getSubscriptions'>> {
  const rows = await deps.db
    .select()
    .from(ruPackages)
    .where(
      and(
        eq(ruPackages.accountId, caller.accountId),
        eq(ruPackages.autoRenew, true),
        eq(ruPackages.status, 'active'),
      ),
    )
    .orderBy(asc(ruPackages.expiresAt));
  const needsCards = rows.some((r) => r.renewChannel === 'card') && deps.stripe;
  const cards = needsCards ? (await listSavedCards(deps, caller.accountId)).list : [];
  return { list: rows.map((r) => toSubscription(deps, r, cards)) };
}

function toSubscription(deps: TCardDeps, row: TRuPackageRow, cards: TCard[]): TSubscription {
  const sku = findSku(deps.skus, row.skuId);
  const card =
    row.renewChannel === 'card'
      ? (cards.find((c) => c.id === row.renewCardId) ?? cards.find((c) => c.isDefault) ?? null)
      : null;
  return {
    packageId: row.id,
    skuId: row.skuId,
    name: row.name,
    priceCents: sku?.priceCents ?? 0,
    renewsAt: row.expiresAt?.getTime() ?? null,
    channel: row.renewChannel,
    card: card && { id: card.id, brand: card.brand, last4: card.last4 },
  };
}

async function ownRenewablePackage(
  deps: TCardDeps,
  caller: TWalletCaller,
  packageId: string,
): Promise<{ pkg: TRuPackageRow; sku: TSku }> {
  const [pkg] = await deps.db
    .select()
    .from(ruPackages)
    .where(and(eq(ruPackages.id, packageId), eq(ruPackages.accountId, caller.accountId)));
  if (!pkg) throw new RpcError(ERROR_CODES.NOT_FOUND);
  const sku = findSku(deps.skus, pkg.skuId);
  if (!sku?.canAutoRenew || !sku.isPurchasable || pkg.status !== 'active' || sku.priceCents <= 0)
    throw new RpcError(ERROR_CODES.AUTO_RENEW_UNAVAILABLE);
  return { pkg, sku };
}

export async function setAutoRenewByCard(
  deps: TCardDeps,
  caller: TWalletCaller,
  params: TParams<'hub_setAutoRenewByCard'>,
): Promise<TResult<'hub_setAutoRenewByCard'>> {
  const { pkg } = await ownRenewablePackage(deps, caller, params.packageId);
  let cardId: string | null = null;
  if (params.byCard) {
    requireStripe(deps);
    const chosen = await chooseCard(deps, caller.accountId, params.cardId);
    // Pinned only when asked for; otherwise renewals follow the default card.
    cardId = params.cardId ? chosen.card.id : null;
  }
  const [updated] = await deps.db
    .update(ruPackages)
    .set({ autoRenew: true, renewChannel: params.byCard ? 'card' : 'wallet', renewCardId: cardId })
    .where(and(eq(ruPackages.id, pkg.id), eq(ruPackages.accountId, caller.accountId)))
    .returning();
  const cards = params.byCard ? (await listSavedCards(deps, caller.accountId)).list : [];
  return toSubscription(deps, updated!, cards);
}

export async function createAutoRenewStripeSetup(
  deps: TCardDeps,
  caller: TWalletCaller,
  params: TParams<'hub_createAutoRenewStripeSetup'>,
): Promise<TResult<'hub_createAutoRenewStripeSetup'>> {
  requireStripe(deps);
  const { pkg } = await ownRenewablePackage(deps, caller, params.packageId);
  return createStripeSetup(deps, caller, { purpose: 'auto_renew', packageId: pkg.id });
}

export type TCardRenewal = { status: 'renewed' | 'pending' | 'failed'; failureCode: string | null };

/** Renews one package by card (the sweep's card path). Safe to call again for the same package. */
export async function renewPackageByCard(
  deps: TCardDeps,
  pkg: TRuPackageRow,
  sku: TSku,
): Promise<TCardRenewal> {
  if (!deps.stripe) return { status: 'failed', failureCode: 'cards_not_configured' };
  const requestKey = `renew:${pkg.id}`;
  const [earlier] = await deps.db
    .select()
    .from(cardOrders)
    .where(and(eq(cardOrders.accountId, pkg.accountId), eq(cardOrders.requestKey, requestKey)));
  try {
    // The card is chosen only for a charge that has none yet (continueOrder retries with the card it recorded, and
    // an order with a PaymentIntent always has one). A pinned card that was removed since: the default pays instead.
    const saved =
      !earlier || !earlier.paymentMethodId ? (await listSavedCards(deps, pkg.accountId)).list : [];
    const pinned = saved.some((c) => c.id === pkg.renewCardId) ? pkg.renewCardId : null;
    // An order whose first charge never reached Stripe (an outage) or whose answer was lost is charged again under
    // the same idempotency key, so Stripe answers a charge it did make with that PaymentIntent.
    const order = earlier
      ? await continueOrder(deps, earlier, pinned ?? undefined, true)
      : await placeOrder(deps, {
          accountId: pkg.accountId,
          userId: null,
          requestKey,
          kind: 'renewal',
          amountCents: sku.priceCents,
          sku,
          renewsPackageId: pkg.id,
          useDiscount: false,
          autoRenew: true,
          cardId: pinned ?? undefined,
          offSession: true,
        });
    if (order.status === 'succeeded') return { status: 'renewed', failureCode: null };
    if (!order.isSettled) return { status: 'pending', failureCode: null };
    return { status: 'failed', failureCode: order.failureCode ?? order.status };
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    // Stripe did not answer: try again next sweep. No card at all (10802): a failure to report, not to retry.
    if (err.code === ERROR_CODES.CARD_PAYMENT_UNAVAILABLE)
      return { status: 'pending', failureCode: null };
    return {
      status: 'failed',
      failureCode: err.code === ERROR_CODES.CARD_REQUIRED ? 'no_card' : String(err.code),
    };
  }
}
