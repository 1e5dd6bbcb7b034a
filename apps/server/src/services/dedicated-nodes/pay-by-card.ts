/**
 * hub_buyDnNodeByCard and hub_renewDnNodeByCard: a card order (services/cards) for the node's price, checked as the
 * wallet path checks (the terms, the price the buyer saw, that the node is the account's and renewable) before
 * anything is charged. Once Stripe says it is paid, settle-order.ts credits the payment to the wallet and makes the
 * node order from it in the same transaction (place-order.ts, channel card) — the same rows and ledger entries as the
 * wallet path. One idempotency key is one card order and one charge (the order id is Stripe's idempotency key).
 */
import { ERROR_CODES, type TParams, type TResult } from '@rpc/contract';
import { dedicatedNodes } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import { RpcError } from '../../rpc/errors';
import { continueOrder, findOrder, placeOrder } from '../cards/card-orders';
import { requireStripe, type TCardDeps } from '../cards/card-deps';
import { quoteDn } from './dn-catalogue';
import { DnError, type TDnCaller } from './dn-error';
import { isRenewable } from './node-rows';

type TDnCardResult = TResult<'hub_buyDnNodeByCard'>;

/** A card order answered as a node's: its kind is one of the node kinds by construction. */
function asDnOrder(order: Awaited<ReturnType<typeof placeOrder>>): TDnCardResult {
  if (order.kind !== 'dn_buy' && order.kind !== 'dn_renew')
    throw new Error(`card order ${order.orderId} is not a node order`);
  return { ...order, kind: order.kind };
}

export async function buyDnNodeByCard(
  deps: TCardDeps,
  caller: TDnCaller,
  params: TParams<'hub_buyDnNodeByCard'>,
): Promise<TDnCardResult> {
  requireStripe(deps);
  const terms = {
    chain: params.chain,
    nodeType: params.nodeType,
    region: params.region,
    months: params.months,
  };
  const requestKey = `dnbuy:${params.idempotencyKey}`;
  const earlier = await findOrder(deps, caller.accountId, requestKey);
  if (earlier) {
    const t = earlier.dnTerms;
    const same =
      earlier.kind === 'dn_buy' &&
      t?.chain === terms.chain &&
      t.nodeType === terms.nodeType &&
      t.region === terms.region &&
      t.months === terms.months;
    if (!same) throw new RpcError(ERROR_CODES.IDEMPOTENCY_KEY_REUSED);
    return asDnOrder(await continueOrder(deps, earlier, params.cardId));
  }
  const quote = quoteDn(deps.dnSkus, terms);
  if (!deps.dnDriver.canProvision(terms.chain)) throw new DnError('chain_not_provisionable');
  if (params.expectedCents !== quote.priceCents) throw new DnError('price_changed');
  return asDnOrder(
    await placeOrder(deps, {
      accountId: caller.accountId,
      userId: caller.userId,
      requestKey,
      kind: 'dn_buy',
      amountCents: quote.priceCents,
      dnTerms: terms,
      cardId: params.cardId,
    }),
  );
}

export async function renewDnNodeByCard(
  deps: TCardDeps,
  caller: TDnCaller,
  params: TParams<'hub_renewDnNodeByCard'>,
): Promise<TDnCardResult> {
  requireStripe(deps);
  const [node] = await deps.db
    .select()
    .from(dedicatedNodes)
    .where(
      and(eq(dedicatedNodes.id, params.nodeId), eq(dedicatedNodes.accountId, caller.accountId)),
    );
  if (!node) throw new DnError('not_found');
  const requestKey = `dnrenew:${params.idempotencyKey}`;
  const earlier = await findOrder(deps, caller.accountId, requestKey);
  if (earlier) {
    const same =
      earlier.kind === 'dn_renew' &&
      earlier.nodeId === node.id &&
      earlier.dnTerms?.months === params.months;
    if (!same) throw new RpcError(ERROR_CODES.IDEMPOTENCY_KEY_REUSED);
    return asDnOrder(await continueOrder(deps, earlier, params.cardId));
  }
  if (!isRenewable(node, deps.clock.now())) throw new DnError('not_renewable');
  const quote = quoteDn(deps.dnSkus, {
    chain: node.chain,
    nodeType: node.nodeType,
    months: params.months,
  });
  if (params.expectedCents !== quote.priceCents) throw new DnError('price_changed');
  return asDnOrder(
    await placeOrder(deps, {
      accountId: caller.accountId,
      userId: caller.userId,
      requestKey,
      kind: 'dn_renew',
      amountCents: quote.priceCents,
      dnTerms: {
        chain: node.chain,
        nodeType: node.nodeType,
        region: node.region,
        months: params.months,
      },
      nodeId: node.id,
      cardId: params.cardId,
    }),
  );
}
