/**
 * hub_renewDnNodeByWallet: more months for a node of the acting account, counted from its expiry or from now if
 * that is later, paid once per request key in one transaction with the node's change. A will_expired node is online
 * again at once; an expired one within its grace period goes back to pending, and the lifecycle sweep starts it
 * again (its endpoint answers once it is online). Past the grace period the data is gone: not renewable.
 */
import {
  addMonthsUtc,
  formatCents,
  type TDnStatus,
  type TParams,
  type TResult,
} from '@rpc/contract';
import {
  dedicatedNodeEvents,
  dedicatedNodeOrders,
  dedicatedNodes,
  type TDedicatedNodeRow,
  type TExecutor,
  type TNoticeRow,
} from '@rpc/db';
import { and, eq, sql } from 'drizzle-orm';
import { raiseNotice } from '../notices/raise-notice';
import { publishAccountChange } from '../wallet/account-tier';
import { answerOrder, plural } from './buy-node';
import { quoteDn } from './dn-catalogue';
import { DnError, type TDnCaller } from './dn-error';
import { isRenewable, nodeLabel } from './node-rows';
import { checkPayable, debitOrder, earlierOrder, lockWallet, type TDnDeps } from './wallet-order';

/** The status a renewal leaves the node in (unchanged when not listed). */
const AFTER_RENEWAL: Partial<Record<TDnStatus, { status: TDnStatus; reason: string }>> = {
  will_expired: { status: 'online', reason: 'renewed' },
  expired: { status: 'pending', reason: 'renewed within the grace period: starting again' },
};

/** The account's node, locked for the rest of the transaction; another account's id is not found. */
export async function lockOwnNode(
  tx: TExecutor,
  accountId: string,
  nodeId: string,
): Promise<TDedicatedNodeRow> {
  const [node] = await tx
    .select()
    .from(dedicatedNodes)
    .where(and(eq(dedicatedNodes.id, nodeId), eq(dedicatedNodes.accountId, accountId)))
    .for('update');
  if (!node) throw new DnError('not_found');
  return node;
}

export async function renewDnNodeByWallet(
  deps: TDnDeps,
  caller: TDnCaller,
  params: TParams<'hub_renewDnNodeByWallet'>,
): Promise<TResult<'hub_renewDnNodeByWallet'>> {
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(async (tx) => {
    const walletCents = await lockWallet(tx, caller.accountId);
    const node = await lockOwnNode(tx, caller.accountId, params.nodeId);
    const earlier = await earlierOrder(tx, caller.accountId, params.idempotencyKey);
    if (earlier) {
      const same =
        earlier.kind === 'renew' &&
        earlier.nodeId === params.nodeId &&
        earlier.months === params.months;
      if (!same) throw new DnError('key_reused');
      return { order: earlier, isNew: false, notices: [] as TNoticeRow[] };
    }

    if (!isRenewable(node, now)) throw new DnError('not_renewable');
    const quote = quoteDn(deps.dnSkus, {
      chain: node.chain,
      nodeType: node.nodeType,
      months: params.months,
    });
    checkPayable({
      priceCents: quote.priceCents,
      expectedCents: params.expectedCents,
      walletCents,
    });

    const at = new Date(now);
    const from = Math.max(now, node.expiresAt.getTime());
    const expiresAt = new Date(addMonthsUtc(from, params.months));
    const next = AFTER_RENEWAL[node.status];
    await tx
      .update(dedicatedNodes)
      .set({
        expiresAt,
        months: sql`${dedicatedNodes.months} + ${params.months}`,
        ...(next ? { status: next.status } : {}),
        // Back from expiry: its process may run again.
        ...(node.status === 'expired' ? { stoppedAt: null } : {}),
        updatedAt: at,
      })
      .where(eq(dedicatedNodes.id, node.id));
    if (next)
      await tx
        .insert(dedicatedNodeEvents)
        .values({ nodeId: node.id, status: next.status, at, reason: next.reason });
    const [order] = await tx
      .insert(dedicatedNodeOrders)
      .values({
        accountId: caller.accountId,
        nodeId: node.id,
        userId: caller.userId,
        kind: 'renew',
        requestKey: params.idempotencyKey,
        months: params.months,
        monthlyCents: quote.monthlyCents,
        discountPercent: quote.discountPercent,
        priceCents: quote.priceCents,
        channel: 'wallet',
        skuVersion: deps.dnSkus.version,
        expiresBefore: node.expiresAt,
        expiresAfter: expiresAt,
        createdAt: at,
      })
      .returning();
    await debitOrder(tx, order!, 'dn_renewal', now);
    const notices = await raiseNotice({
      db: tx,
      at: now,
      type: 'normal_success',
      accountId: caller.accountId,
      title: 'Dedicated node renewed',
      content:
        `${nodeLabel(deps, node)} renewed for ${plural(params.months, 'month')}, paid ` +
        `$${formatCents(quote.priceCents)}. It now expires on ${expiresAt.toISOString().slice(0, 10)}.`,
      expand: {
        name: nodeLabel(deps, node),
        usdAmount: formatCents(quote.priceCents),
        timeStamp: expiresAt.getTime(),
      },
    });
    return { order: order!, isNew: true, notices };
  });
  if (outcome.isNew) {
    deps.noticeBus.push(outcome.notices);
    await publishAccountChange(deps, caller.accountId);
  }
  return answerOrder(deps, caller, outcome.order);
}
