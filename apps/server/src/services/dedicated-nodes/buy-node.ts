/**
 * hub_buyDnNodeByWallet: one transaction makes the node (pending), its order, its first event, the wallet debit and
 * the invoice (place-order.ts), under the account lock; the same request key answers the same order and pays once.
 * The lifecycle sweep provisions the node and brings it online.
 */
import type { TParams, TResult } from '@rpc/contract';
import { dedicatedNodes, type TDedicatedNodeOrderRow, type TNoticeRow } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { publishAccountChange } from '../wallet/account-tier';
import { getWalletOverview } from '../wallet/get-wallet-overview';
import { DnError, type TDnCaller } from './dn-error';
import { historyOf, toDnNode, toDnOrder } from './node-rows';
import { placeNodePurchase } from './place-order';
import { earlierOrder, lockWallet, type TDnDeps } from './wallet-order';

export async function buyDnNodeByWallet(
  deps: TDnDeps,
  caller: TDnCaller,
  params: TParams<'hub_buyDnNodeByWallet'>,
): Promise<TResult<'hub_buyDnNodeByWallet'>> {
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(async (tx) => {
    await lockWallet(tx, caller.accountId);
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
    const placed = await placeNodePurchase(
      tx,
      deps,
      {
        accountId: caller.accountId,
        userId: caller.userId,
        channel: 'wallet',
        requestKey: params.idempotencyKey,
        expectedCents: params.expectedCents,
      },
      params,
      now,
    );
    return { ...placed, isNew: true };
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
