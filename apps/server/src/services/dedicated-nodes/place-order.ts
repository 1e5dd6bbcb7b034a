/**
 * The one way a node order is made, whatever pays for it: inside the caller's transaction, under the account lock,
 * the price checked against what the buyer saw and the wallet, the node made (purchase) or moved on (renewal), the
 * order and its event written, the wallet debited through the one money writer, the invoice issued and the notice
 * raised. The wallet methods (buy-node.ts, renew-node.ts) call it directly; a card payment (services/cards/
 * settle-order.ts) calls it after crediting the payment to the wallet in the same transaction, so both paths leave
 * the same rows and ledger entries.
 */
import {
  addMonthsUtc,
  formatCents,
  type TDnEventReason,
  type TDnStatus,
  type TParams,
} from '@rpc/contract';
import {
  dedicatedNodeEvents,
  dedicatedNodeOrders,
  dedicatedNodes,
  type TDedicatedNodeOrderRow,
  type TDedicatedNodeRow,
  type TExecutor,
  type TNoticeRow,
} from '@rpc/db';
import { and, eq, sql } from 'drizzle-orm';
import { issueDnOrderInvoice } from '../invoices/issue-invoice';
import { raiseNotice } from '../notices/raise-notice';
import { quoteDn } from './dn-catalogue';
import { DnError } from './dn-error';
import { invoiceName, isRenewable, nodeLabel } from './node-rows';
import { checkPayable, debitOrder, lockWallet, type TDnDeps } from './wallet-order';

export type TDnTerms = Pick<
  TParams<'hub_buyDnNodeByWallet'>,
  'chain' | 'nodeType' | 'region' | 'months'
>;

/** Who pays and how: the request key is the caller's idempotency key (wallet) or card:<card order id> (card). */
export type TDnPayment = {
  accountId: string;
  userId: string | null;
  channel: 'wallet' | 'card';
  requestKey: string;
  /** the price the buyer accepted: another price now refuses the order */
  expectedCents: number;
};

export type TPlaced = { order: TDedicatedNodeOrderRow; notices: TNoticeRow[] };

type TOrderDeps = Pick<TDnDeps, 'dnSkus' | 'dnDriver' | 'config'>;

/** The status a renewal leaves the node in (unchanged when not listed). */
const AFTER_RENEWAL: Partial<Record<TDnStatus, { status: TDnStatus; reason: TDnEventReason }>> = {
  will_expired: { status: 'online', reason: 'renewed' },
  expired: { status: 'pending', reason: 'renewed_in_grace' },
};

/** A new node (pending) with its purchase order, paid now. */
export async function placeNodePurchase(
  tx: TExecutor,
  deps: TOrderDeps,
  pay: TDnPayment,
  terms: TDnTerms,
  now: number,
): Promise<TPlaced> {
  const walletCents = await lockWallet(tx, pay.accountId);
  const quote = quoteDn(deps.dnSkus, terms);
  if (!deps.dnDriver.canProvision(terms.chain)) throw new DnError('chain_not_provisionable');
  checkPayable({
    priceCents: quote.priceCents,
    expectedCents: pay.expectedCents,
    walletCents,
    channel: pay.channel,
  });

  const at = new Date(now);
  const expiresAt = new Date(addMonthsUtc(now, terms.months));
  const [node] = await tx
    .insert(dedicatedNodes)
    .values({
      accountId: pay.accountId,
      chain: terms.chain,
      nodeType: terms.nodeType,
      region: terms.region,
      status: 'pending',
      months: terms.months,
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
      accountId: pay.accountId,
      nodeId: node!.id,
      userId: pay.userId,
      kind: 'buy',
      requestKey: pay.requestKey,
      months: terms.months,
      monthlyCents: quote.monthlyCents,
      discountPercent: quote.discountPercent,
      priceCents: quote.priceCents,
      channel: pay.channel,
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
  await issueDnOrderInvoice(tx, {
    order: order!,
    chain: node!.chain,
    nodeType: node!.nodeType,
    region: node!.region,
    name: invoiceName(deps, node!, 'buy'),
    seller: deps.config.invoiceSeller,
    now,
  });
  const label = nodeLabel(deps, node!);
  const notices = await raiseNotice({
    db: tx,
    at: now,
    type: 'normal_success',
    accountId: pay.accountId,
    title: 'Dedicated node ordered',
    content:
      `${label} for ${plural(terms.months, 'month')}, paid $${formatCents(quote.priceCents)}` +
      `${pay.channel === 'card' ? ' by card' : ''}. It is being set up and comes online in a few minutes.`,
    expand: { name: label, usdAmount: formatCents(quote.priceCents) },
  });
  return { order: order!, notices };
}

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

/**
 * More months for a node of the account, counted from its expiry or from now if that is later. A will_expired node
 * is online again at once; an expired one within its grace period goes back to pending (the lifecycle sweep starts
 * it again). Past the grace period the data is gone: not renewable.
 */
export async function placeNodeRenewal(
  tx: TExecutor,
  deps: TOrderDeps,
  pay: TDnPayment,
  o: { nodeId: string; months: number },
  now: number,
): Promise<TPlaced> {
  const walletCents = await lockWallet(tx, pay.accountId);
  const node = await lockOwnNode(tx, pay.accountId, o.nodeId);
  if (!isRenewable(node, now)) throw new DnError('not_renewable');
  const quote = quoteDn(deps.dnSkus, {
    chain: node.chain,
    nodeType: node.nodeType,
    months: o.months,
  });
  checkPayable({
    priceCents: quote.priceCents,
    expectedCents: pay.expectedCents,
    walletCents,
    channel: pay.channel,
  });

  const at = new Date(now);
  const from = Math.max(now, node.expiresAt.getTime());
  const expiresAt = new Date(addMonthsUtc(from, o.months));
  const next = AFTER_RENEWAL[node.status];
  await tx
    .update(dedicatedNodes)
    .set({
      expiresAt,
      months: sql`${dedicatedNodes.months} + ${o.months}`,
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
      accountId: pay.accountId,
      nodeId: node.id,
      userId: pay.userId,
      kind: 'renew',
      requestKey: pay.requestKey,
      months: o.months,
      monthlyCents: quote.monthlyCents,
      discountPercent: quote.discountPercent,
      priceCents: quote.priceCents,
      channel: pay.channel,
      skuVersion: deps.dnSkus.version,
      expiresBefore: node.expiresAt,
      expiresAfter: expiresAt,
      createdAt: at,
    })
    .returning();
  await debitOrder(tx, order!, 'dn_renewal', now);
  await issueDnOrderInvoice(tx, {
    order: order!,
    chain: node.chain,
    nodeType: node.nodeType,
    region: node.region,
    name: invoiceName(deps, node, 'renew'),
    seller: deps.config.invoiceSeller,
    now,
  });
  const label = nodeLabel(deps, node);
  const notices = await raiseNotice({
    db: tx,
    at: now,
    type: 'normal_success',
    accountId: pay.accountId,
    title: 'Dedicated node renewed',
    content:
      `${label} renewed for ${plural(o.months, 'month')}, paid $${formatCents(quote.priceCents)}` +
      `${pay.channel === 'card' ? ' by card' : ''}. It now expires on ${expiresAt.toISOString().slice(0, 10)}.`,
    expand: {
      name: label,
      usdAmount: formatCents(quote.priceCents),
      timeStamp: expiresAt.getTime(),
    },
  });
  return { order: order!, notices };
}

export function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
