/**
 * Saved cards: PaymentMethods of the account's Stripe customer, read from Stripe (the truth; nothing about a card is
 * stored here). The default is the customer's invoice_settings.default_payment_method, or the newest card.
 */
import { ERROR_CODES, type TCard, type TParams, type TResult } from '@rpc/contract';
import type Stripe from 'stripe';
import { RpcError } from '../../rpc/errors';
import type { TWalletCaller } from '../wallet/wallet-caller';
import { toCardBrand } from './card-brand';
import { callStripe, requireStripe, type TCardDeps } from './card-deps';
import { ensureCustomerId, findCustomerId } from './customers';

export type TSavedCards = { customerId: string | null; list: TCard[] };

export async function listSavedCards(deps: TCardDeps, accountId: string): Promise<TSavedCards> {
  const stripe = requireStripe(deps);
  const customerId = await findCustomerId(deps, accountId);
  if (!customerId) return { customerId: null, list: [] };
  const [customer, methods] = await Promise.all([
    callStripe(deps, 'customers.retrieve', () => stripe.client.customers.retrieve(customerId)),
    callStripe(deps, 'paymentMethods.list', () =>
      stripe.client.paymentMethods.list({ customer: customerId, type: 'card', limit: 100 }),
    ),
  ]);
  const pinned =
    'deleted' in customer && customer.deleted
      ? null
      : idOf((customer as Stripe.Customer).invoice_settings?.default_payment_method);
  const cards = methods.data.filter((m) => m.card);
  const defaultId = cards.some((m) => m.id === pinned) ? pinned : (cards[0]?.id ?? null);
  const now = new Date(deps.clock.now());
  const month = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
  return {
    customerId,
    list: cards.map((m) => ({
      id: m.id,
      brand: toCardBrand(m.card!.brand, m.card!.funding),
      last4: m.card!.last4,
      expMonth: m.card!.exp_month,
      expYear: m.card!.exp_year,
      isDefault: m.id === defaultId,
      isExpired: m.card!.exp_year * 12 + m.card!.exp_month < month,
    })),
  };
}

function idOf(v: string | { id: string } | null | undefined): string | null {
  if (!v) return null;
  return typeof v === 'string' ? v : v.id;
}

/** The card a payment charges: the one asked for (it must be the account's), else the default. */
export async function chooseCard(
  deps: TCardDeps,
  accountId: string,
  cardId: string | undefined,
): Promise<{ customerId: string; card: TCard }> {
  const saved = await listSavedCards(deps, accountId);
  const card = cardId
    ? saved.list.find((c) => c.id === cardId)
    : saved.list.find((c) => c.isDefault);
  if (cardId && !card) throw new RpcError(ERROR_CODES.NOT_FOUND);
  if (!card || !saved.customerId) throw new RpcError(ERROR_CODES.CARD_REQUIRED);
  return { customerId: saved.customerId, card };
}

export async function getCreditCardList(
  deps: TCardDeps,
  caller: TWalletCaller,
): Promise<TResult<'hub_getCreditCardList'>> {
  if (!deps.stripe) return { isConfigured: false, list: [] };
  const { list } = await listSavedCards(deps, caller.accountId);
  return { isConfigured: true, list };
}

export async function createStripeSetup(
  deps: TCardDeps,
  caller: TWalletCaller,
  metadata: Record<string, string> = {},
): Promise<TResult<'hub_createStripeSetup'>> {
  const stripe = requireStripe(deps);
  const customerId = await ensureCustomerId(deps, caller.accountId);
  const intent = await callStripe(deps, 'setupIntents.create', () =>
    stripe.client.setupIntents.create({
      customer: customerId,
      usage: 'off_session',
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      metadata: { accountId: caller.accountId, userId: caller.userId, ...metadata },
    }),
  );
  return {
    clientSecret: intent.client_secret!,
    setupIntentId: intent.id,
    publishableKey: stripe.publishableKey,
  };
}

export async function setDefaultCreditCard(
  deps: TCardDeps,
  caller: TWalletCaller,
  params: TParams<'hub_setDefaultCreditCard'>,
): Promise<TResult<'hub_setDefaultCreditCard'>> {
  const stripe = requireStripe(deps);
  const { customerId } = await chooseCard(deps, caller.accountId, params.cardId);
  await callStripe(deps, 'customers.update', () =>
    stripe.client.customers.update(customerId, {
      invoice_settings: { default_payment_method: params.cardId },
    }),
  );
  return { list: (await listSavedCards(deps, caller.accountId)).list };
}

export async function removeCreditCard(
  deps: TCardDeps,
  caller: TWalletCaller,
  params: TParams<'hub_removeCreditCard'>,
): Promise<TResult<'hub_removeCreditCard'>> {
  const stripe = requireStripe(deps);
  // Only a card of this account's customer: another account's card id is simply not found.
  await chooseCard(deps, caller.accountId, params.cardId);
  await callStripe(deps, 'paymentMethods.detach', () =>
    stripe.client.paymentMethods.detach(params.cardId),
  );
  return { list: (await listSavedCards(deps, caller.accountId)).list };
}
