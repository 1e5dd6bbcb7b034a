/**
 * Applies what Stripe says about an order's PaymentIntent, exactly once, whoever brings the news first: the answer
 * to the charge, the webhook, or a poll. A succeeded payment credits the wallet (money ledger kind card_payment, ref
 * the PaymentIntent id) and, for a package or a dedicated node, buys it from the wallet in the same transaction
 * (channel card); one that can no longer be applied, or a renewal whose auto-renew was turned off before it settled,
 * leaves the money in the wallet (status credited). Succeeded always wins: a failure arriving after it (out of order)
 * changes nothing.
 */
import { ERROR_CODES, formatCents } from '@rpc/contract';
import {
  accounts,
  cardOrders,
  ruPackages,
  type TCardOrderRow,
  type TDedicatedNodeOrderRow,
  type TExecutor,
  type TNoticeRow,
} from '@rpc/db';
import { and, eq, inArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import { RpcError } from '../../rpc/errors';
import { DnError } from '../dedicated-nodes/dn-error';
import { placeNodePurchase, placeNodeRenewal } from '../dedicated-nodes/place-order';
import { raiseNotice } from '../notices/raise-notice';
import { publishAccountChange } from '../wallet/account-tier';
import { lockAccount } from '../wallet/lock-account';
import { postMoney } from '../wallet/post-money';
import { purchasePackage } from '../wallet/purchase-package';
import { findSku } from '../wallet/sku-catalogue';
import type { TCardDeps } from './card-deps';

const OPEN: TCardOrderRow['status'][] = ['pending', 'requires_action'];

export type TSettleOutcome = { order: TCardOrderRow; clientSecret: string | null };

/** Moves an order along its PaymentIntent's state; answers the order as it stands afterwards. */
export async function applyPaymentIntent(
  deps: TCardDeps,
  orderId: string,
  intent: Stripe.PaymentIntent,
): Promise<TSettleOutcome> {
  if (intent.status === 'succeeded')
    return { order: await settlePaid(deps, orderId, intent), clientSecret: null };
  const next: TCardOrderRow['status'] | null =
    intent.status === 'requires_action'
      ? 'requires_action'
      : intent.status === 'processing' || intent.status === 'requires_confirmation'
        ? 'pending'
        : intent.status === 'requires_payment_method' || intent.status === 'canceled'
          ? 'failed'
          : null;
  const code =
    next === 'failed'
      ? (intent.last_payment_error?.decline_code ??
        intent.last_payment_error?.code ??
        (intent.status === 'canceled' ? 'canceled' : 'payment_failed'))
      : null;
  const order = next
    ? await moveOpenOrder(deps, orderId, next, code)
    : await readOrder(deps, orderId);
  return { order, clientSecret: intent.client_secret ?? null };
}

/** A declined or failed charge: the order fails unless it has already settled. */
export async function markOrderFailed(
  deps: TCardDeps,
  orderId: string,
  code: string,
): Promise<TCardOrderRow> {
  return moveOpenOrder(deps, orderId, 'failed', code);
}

async function moveOpenOrder(
  deps: TCardDeps,
  orderId: string,
  status: TCardOrderRow['status'],
  failureCode: string | null,
): Promise<TCardOrderRow> {
  const settled = status === 'failed' ? new Date(deps.clock.now()) : null;
  const [moved] = await deps.db
    .update(cardOrders)
    .set({ status, failureCode, settledAt: settled })
    .where(and(eq(cardOrders.id, orderId), inArray(cardOrders.status, OPEN)))
    .returning();
  return moved ?? (await readOrder(deps, orderId));
}

async function readOrder(deps: TCardDeps, orderId: string): Promise<TCardOrderRow> {
  const [row] = await deps.db.select().from(cardOrders).where(eq(cardOrders.id, orderId));
  if (!row) throw new Error(`card order ${orderId} vanished`);
  return row;
}

async function settlePaid(
  deps: TCardDeps,
  orderId: string,
  intent: Stripe.PaymentIntent,
): Promise<TCardOrderRow> {
  const now = deps.clock.now();
  const { order, notices, changed } = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(cardOrders)
      .where(eq(cardOrders.id, orderId))
      .for('update');
    if (!row) throw new Error(`card order ${orderId} vanished`);
    if (row.status === 'succeeded' || row.status === 'credited')
      return { order: row, notices: [] as TNoticeRow[], changed: false };
    // Only the payment made for this order, in full, settles it.
    if (
      intent.amount_received !== row.amountCents ||
      intent.currency.toLowerCase() !== row.currency.toLowerCase() ||
      intent.metadata?.orderId !== row.id
    ) {
      deps.logger.error(
        { orderId, paymentIntent: intent.id, amount: intent.amount_received },
        'card payment does not match its order; not applied',
      );
      return { order: row, notices: [] as TNoticeRow[], changed: false };
    }
    await postMoney(tx, {
      accountId: row.accountId,
      delta: row.amountCents,
      kind: 'card_payment',
      ref: intent.id,
      at: now,
    });
    const raised: TNoticeRow[] = [];
    let status: TCardOrderRow['status'] = 'succeeded';
    let purchaseId: string | null = null;
    let failureCode: string | null = null;
    let nodeId = row.nodeId;
    let dnOrderId: string | null = null;
    if (row.kind !== 'top_up' && (await isDisbanded(tx, row.accountId))) {
      // The team was disbanded while the payment was processing: nothing is bought for an account nobody can act
      // for. The payment stays in its wallet (credited), and the disbanded-team sweep moves it to the owner who
      // disbanded it, with its own notice (docs/decisions/teams.md).
      status = 'credited';
      failureCode = 'account_disbanded';
    } else if (row.kind === 'dn_buy' || row.kind === 'dn_renew') {
      const node = await settleNodeOrder(tx, deps, row, now);
      raised.push(...node.notices);
      if (node.placed) {
        nodeId = node.placed.nodeId;
        dnOrderId = node.placed.id;
      } else {
        status = 'credited';
        failureCode = node.failureCode;
      }
    } else if (row.kind === 'top_up') {
      raised.push(
        ...(await raiseNotice({
          db: tx,
          at: now,
          type: 'deposit',
          accountId: row.accountId,
          title: 'Wallet topped up by card',
          content: `$${formatCents(row.amountCents)} was added to your wallet by card.`,
          expand: { usdAmount: formatCents(row.amountCents), type: 'card' },
        })),
      );
    } else if (row.kind === 'renewal' && !(await renewalStillWanted(tx, row))) {
      // Auto-renew was turned off after the sweep charged the card, before the payment settled. The user was told
      // "will not be renewed automatically", and a wallet renewal in the same race is skipped (sweep-packages.ts), so
      // no package is bought: the payment stays in the wallet (credited), as any card payment whose purchase cannot
      // happen does. Buying it anyway would renew against the user's last word, and with auto-renew on it would
      // charge the card again next term. The wallet can buy the same package in one step if they still want it.
      status = 'credited';
      failureCode = 'auto_renew_turned_off';
      raised.push(
        ...(await creditedNotice(
          tx,
          row,
          now,
          `Your card payment of $${formatCents(row.amountCents)} for renewing ${row.skuName?.en ?? 'a package'} arrived after auto-renewal was turned off, so the package was not renewed; the amount was added to your wallet instead.`,
        )),
      );
    } else {
      const sku = row.skuId ? findSku(deps.skus, row.skuId) : undefined;
      try {
        // A savepoint: a package that cannot be applied rolls back alone; the payment stays credited.
        const bought = await tx.transaction(async (sp) => {
          if (!sku) throw new RpcError(ERROR_CODES.SKU_UNAVAILABLE);
          return purchasePackage(sp, {
            accountId: row.accountId,
            userId: row.userId,
            sku,
            catalogueVersion: deps.skus.version,
            seller: deps.config.invoiceSeller,
            requestKey: row.kind === 'renewal' ? `renew:${row.renewsPackageId}` : `card:${row.id}`,
            reason: row.kind === 'renewal' ? 'auto_renew' : 'purchase',
            autoRenew: row.autoRenew,
            useDiscount: row.useDiscount,
            expectedPayCents: row.amountCents,
            channel: 'card',
            renewChannel: 'card',
            renewCardId: row.paymentMethodId,
            now,
          });
        });
        purchaseId = bought.purchase.id;
        raised.push(...bought.notices);
        if (row.kind === 'renewal' && row.renewsPackageId)
          await tx
            .update(ruPackages)
            .set({ renewedBy: bought.pkg.id })
            .where(eq(ruPackages.id, row.renewsPackageId));
      } catch (err) {
        if (!(err instanceof RpcError)) throw err;
        status = 'credited';
        failureCode = `package_not_applied_${err.code}`;
        raised.push(
          ...(await creditedNotice(
            tx,
            row,
            now,
            `Your card payment of $${formatCents(row.amountCents)} could not buy ${row.skuName?.en ?? 'the package'} (${err.message}) and was added to your wallet instead.`,
          )),
        );
      }
    }
    const [updated] = await tx
      .update(cardOrders)
      .set({ status, purchaseId, nodeId, dnOrderId, failureCode, settledAt: new Date(now) })
      .where(eq(cardOrders.id, row.id))
      .returning();
    return { order: updated!, notices: raised, changed: true };
  });
  if (changed) {
    deps.noticeBus.push(notices);
    await publishAccountChange(deps, order.accountId);
  }
  return order;
}

async function isDisbanded(tx: TExecutor, accountId: string): Promise<boolean> {
  const [account] = await tx
    .select({ disbandedAt: accounts.disbandedAt })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return account?.disbandedAt != null;
}

/** The notice of a package payment that stayed in the wallet (status credited), saying why in `content`. */
function creditedNotice(tx: TExecutor, row: TCardOrderRow, now: number, content: string) {
  return raiseNotice({
    db: tx,
    at: now,
    type: 'normal_warn',
    accountId: row.accountId,
    title: 'Card payment credited to the wallet',
    content,
    expand: { usdAmount: formatCents(row.amountCents), skuName: row.skuName?.en ?? '' },
  });
}

/**
 * A renewal order's package still asks to be renewed (auto-renew on). Read under the account lock, which
 * hub_setUserAutoRenew and the sweep take before they touch the package (wallet/lock-account.ts): turning auto-renew
 * off either lands before this read or waits for this settlement.
 */
async function renewalStillWanted(tx: TExecutor, row: TCardOrderRow): Promise<boolean> {
  if (!row.renewsPackageId) return false;
  await lockAccount(tx, row.accountId);
  const [pkg] = await tx
    .select({ autoRenew: ruPackages.autoRenew })
    .from(ruPackages)
    .where(and(eq(ruPackages.id, row.renewsPackageId), eq(ruPackages.accountId, row.accountId)));
  return pkg?.autoRenew === true;
}

/**
 * A paid node order: the node bought or renewed from the payment just credited, in a savepoint, exactly as the
 * wallet path does (place-order.ts, channel card). A node that can no longer be had (price or catalogue changed, past
 * its grace period) rolls back alone: the payment stays in the wallet and the buyer is told.
 */
async function settleNodeOrder(
  tx: TExecutor,
  deps: TCardDeps,
  row: TCardOrderRow,
  now: number,
): Promise<{
  placed: TDedicatedNodeOrderRow | null;
  notices: TNoticeRow[];
  failureCode: string | null;
}> {
  const pay = {
    accountId: row.accountId,
    userId: row.userId,
    channel: 'card' as const,
    requestKey: `card:${row.id}`,
    expectedCents: row.amountCents,
  };
  try {
    const placed = await tx.transaction(async (sp) => {
      const terms = row.dnTerms;
      if (!terms || (row.kind === 'dn_renew' && !row.nodeId)) throw new DnError('not_found');
      return row.kind === 'dn_buy'
        ? placeNodePurchase(sp, deps, pay, terms, now)
        : placeNodeRenewal(sp, deps, pay, { nodeId: row.nodeId!, months: terms.months }, now);
    });
    return { placed: placed.order, notices: placed.notices, failureCode: null };
  } catch (err) {
    if (!(err instanceof DnError)) throw err;
    const what = row.kind === 'dn_buy' ? 'buy the dedicated node' : 'renew the dedicated node';
    const notices = await raiseNotice({
      db: tx,
      at: now,
      type: 'normal_warn',
      accountId: row.accountId,
      title: 'Card payment credited to the wallet',
      content: `Your card payment of $${formatCents(row.amountCents)} could not ${what} (${err.kind.replaceAll('_', ' ')}) and was added to your wallet instead.`,
      expand: { usdAmount: formatCents(row.amountCents) },
    });
    return { placed: null, notices, failureCode: `node_not_applied_${err.kind}` };
  }
}
