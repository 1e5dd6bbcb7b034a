/**
 * hub_renewDnNodeByWallet: more months for a node of the acting account, paid once per request key in one
 * transaction with the node's change (place-order.ts placeNodeRenewal says what a renewal does to each status).
 */
import type { TParams, TResult } from '@rpc/contract';
import type { TNoticeRow } from '@rpc/db';
import { publishAccountChange } from '../wallet/account-tier';
import { answerOrder } from './buy-node';
import { DnError, type TDnCaller } from './dn-error';
import { lockOwnNode, placeNodeRenewal } from './place-order';
import { earlierOrder, lockWallet, type TDnDeps } from './wallet-order';

export async function renewDnNodeByWallet(
  deps: TDnDeps,
  caller: TDnCaller,
  params: TParams<'hub_renewDnNodeByWallet'>,
): Promise<TResult<'hub_renewDnNodeByWallet'>> {
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(async (tx) => {
    await lockWallet(tx, caller.accountId);
    // Another account's node is not found, even for a replayed key.
    await lockOwnNode(tx, caller.accountId, params.nodeId);
    const earlier = await earlierOrder(tx, caller.accountId, params.idempotencyKey);
    if (earlier) {
      const same =
        earlier.kind === 'renew' &&
        earlier.nodeId === params.nodeId &&
        earlier.months === params.months;
      if (!same) throw new DnError('key_reused');
      return { order: earlier, isNew: false, notices: [] as TNoticeRow[] };
    }
    const placed = await placeNodeRenewal(
      tx,
      deps,
      {
        accountId: caller.accountId,
        userId: caller.userId,
        channel: 'wallet',
        requestKey: params.idempotencyKey,
        expectedCents: params.expectedCents,
      },
      { nodeId: params.nodeId, months: params.months },
      now,
    );
    return { ...placed, isNew: true };
  });
  if (outcome.isNew) {
    deps.noticeBus.push(outcome.notices);
    await publishAccountChange(deps, caller.accountId);
  }
  return answerOrder(deps, caller, outcome.order);
}
