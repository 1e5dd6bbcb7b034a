/**
 * hub_buyDnNodeByWallet: one transaction makes the node (pending), its order, its first event and the wallet
 * debit, under the account lock; the same request key answers the same order and pays once. The lifecycle sweep
 * provisions the node and brings it online.
 */
import { addMonthsUtc, formatCents, type TParams, type TResult } from '@rpc/contract';
import {
  dedicatedNodeEvents,
  dedicatedNodeOrders,
  dedicatedNodes,
  type TDedicatedNodeOrderRow,
  type TNoticeRow,
} from '@rpc/db';
import { eq } from 'drizzle-orm';
import { raiseNotice } from '../notices/raise-notice';
import { publishAccountChange } from '../wallet/account-tier';
import { getWalletOverview } from '../wallet/get-wallet-overview';
import { quoteDn } from './dn-catalogue';
import { DnError, type TDnCaller } from './dn-error';
import { historyOf, nodeLabel, toDnNode, toDnOrder } from './node-rows';
import { checkPayable, debitOrder, earlierOrder, lockWallet, type TDnDeps } from './wallet-order';

export async function buyDnNodeByWallet(
  deps: TDnDeps,
  caller: TDnCaller,
  params: TParams<'hub_buyDnNodeByWallet'>,
): Promise<TResult<'hub_buyDnNodeByWallet'>> {
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(async (tx) => {
    const walletCents = await lockWallet(tx, caller.accountId);
    const earlier = await earlierOrder(tx, caller.accountId, params.idempotencyKey);
    if (earlier) {
      const [node] = await tx
        .select()
        .from(dedicatedNodes)
        .where(eq(dedicatedNodes.id, earlier.nodeId));
      const same =
        earlier.kind === 'buy' &&
        node?.chain === params.chain &&
        node.nodeType === params.nodeType &&
        node.region === params.region &&
        earlier.months === params.months;
      if (!same) throw new DnError('key_reused');
      return { order: earlier, isNew: false, notices: [] as TNoticeRow[] };
    }

    const quote = quoteDn(deps.dnSkus, params);
    if (!deps.dnDriver.canProvision(params.chain)) throw new DnError('chain_not_provisionable');
    checkPayable({
      priceCents: quote.priceCents,
      expectedCents: params.expectedCents,
      walletCents,
    });

    const at = new Date(now);
    const expiresAt = new Date(addMonthsUtc(now, params.months));
    const [node] = await tx
      .insert(dedicatedNodes)
      .values({
        accountId: caller.accountId,
        chain: params.chain,
        nodeType: params.nodeType,
        region: params.region,
        status: 'pending',
        months: params.months,
        priceCents: quote.priceCents,
        skuVersion: deps.dnSkus.version,
        expiresAt,
        driver: deps.dnDriver.name,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    const [order] = await tx
      .insert(dedicatedNodeOrders)
      .values({
        accountId: caller.accountId,
        nodeId: node!.id,
        userId: caller.userId,
        kind: 'buy',
        requestKey: params.idempotencyKey,
        months: params.months,
        monthlyCents: quote.monthlyCents,
        discountPercent: quote.discountPercent,
        priceCents: quote.priceCents,
        channel: 'wallet',
        skuVersion: deps.dnSkus.version,
        expiresBefore: null,
        expiresAfter: expiresAt,
        createdAt: at,
      })
      .returning();
    await tx
      .insert(dedicatedNodeEvents)
      .values({ nodeId: node!.id, status: 'pending', at, reason: 'ordered' });
    await debitOrder(tx, order!, 'dn_purchase', now);
    const notices = await raiseNotice({
      db: tx,
      at: now,
      type: 'normal_success',
      accountId: caller.accountId,
      title: 'Dedicated node ordered',
      content:
        `${nodeLabel(deps, node!)} for ${plural(params.months, 'month')}, paid $${formatCents(quote.priceCents)}. ` +
        'It is being set up and comes online in a few minutes.',
      expand: { name: nodeLabel(deps, node!), usdAmount: formatCents(quote.priceCents) },
    });
    return { order: order!, isNew: true, notices };
  });
  if (outcome.isNew) {
    deps.noticeBus.push(outcome.notices);
    // The wallet moved: pay-as-you-go's allowance at the gateways moved with it.
    await publishAccountChange(deps, caller.accountId);
  }
  return answerOrder(deps, caller, outcome.order);
}

/** The order, its node as it stands now and the wallet: what both wallet methods answer. */
export async function answerOrder(
  deps: TDnDeps,
  caller: TDnCaller,
  order: TDedicatedNodeOrderRow,
): Promise<TResult<'hub_buyDnNodeByWallet'>> {
  const now = deps.clock.now();
  const [node] = await deps.db
    .select()
    .from(dedicatedNodes)
    .where(eq(dedicatedNodes.id, order.nodeId));
  const history = await historyOf(deps.db, [order.nodeId]);
  return {
    order: toDnOrder(order),
    node: toDnNode(deps, node!, history.get(order.nodeId) ?? [], now),
    wallet: await getWalletOverview(deps.db, { accountId: caller.accountId, now }),
  };
}

export function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
