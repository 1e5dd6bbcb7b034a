/**
 * One purchase, inside the caller's transaction: the account row locked first (so purchases of one wallet run
 * one at a time and the balance check holds), the request key looked up (a replay answers the first purchase,
 * a different request under the same key is refused), then the package, the purchase, the money debit and the
 * RU credit, each idempotent by its own reference. Used by hub_buyPackage, auto-renewal and the monthly free SKU.
 */
import { ERROR_CODES, formatCents, type TNoticeType, type TSku } from '@rpc/contract';
import {
  accountDiscounts,
  purchases,
  ruPackages,
  type TExecutor,
  type TPurchaseReason,
  type TInvoiceSellerSnapshot,
  type TPurchaseRow,
  type TRuPackageRow,
} from '@rpc/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { TNoticeRow } from '@rpc/db';
import { RpcError } from '../../rpc/errors';
import { issueInvoice } from '../invoices/issue-invoice';
import { appendRuLedger } from '../ledger/append-ru-ledger';
import { raiseNotice } from '../notices/raise-notice';
import { refreshAccountTier } from './account-tier';
import { lockAccount } from './lock-account';
import { postMoney, refreshPaygAllowance } from './post-money';
import { quoteSku } from './price-quote';
import { reconcilePackages } from './reconcile-packages';

export type TPurchaseInput = {
  accountId: string;
  /** who asked (null: the system, e.g. a renewal) */
  userId: string | null;
  sku: TSku;
  catalogueVersion: string;
  requestKey: string;
  reason: TPurchaseReason;
  autoRenew: boolean;
  useDiscount: boolean;
  expectedPayCents?: number | undefined;
  /** what paid: the wallet (funded by crypto; the default) or a card payment credited just before */
  channel?: 'crypto' | 'card';
  /** how the new package renews when autoRenew is on (default: from the wallet) */
  renewChannel?: 'wallet' | 'card';
  renewCardId?: string | null;
  /** the seller the invoice prints (config.invoiceSeller); needed when anything is paid (grants pay nothing) */
  seller?: TInvoiceSellerSnapshot;
  now: number;
};

export type TPurchaseOutcome = {
  purchase: TPurchaseRow;
  pkg: TRuPackageRow;
  /** false: the request key had been used for this purchase before; nothing changed now */
  isNew: boolean;
  tierChanged: boolean;
  notices: TNoticeRow[];
};

export async function purchasePackage(tx: TExecutor, o: TPurchaseInput): Promise<TPurchaseOutcome> {
  await lockAccount(tx, o.accountId);

  const [earlier] = await tx
    .select()
    .from(purchases)
    .where(and(eq(purchases.accountId, o.accountId), eq(purchases.requestKey, o.requestKey)));
  if (earlier) {
    if (earlier.skuId !== o.sku.id) throw new RpcError(ERROR_CODES.IDEMPOTENCY_KEY_REUSED);
    const [pkg] = await tx.select().from(ruPackages).where(eq(ruPackages.id, earlier.packageId));
    return { purchase: earlier, pkg: pkg!, isNew: false, tierChanged: false, notices: [] };
  }

  const quote = await quoteSku(tx, {
    accountId: o.accountId,
    sku: o.sku,
    catalogueVersion: o.catalogueVersion,
    useDiscount: o.useDiscount,
    now: o.now,
  });
  if (o.expectedPayCents !== undefined && o.expectedPayCents !== quote.payCents)
    throw new RpcError(ERROR_CODES.PRICE_CHANGED);
  // A card payment of the whole price was credited just before (settle-order.ts): it buys the package even when the
  // wallet was in pay-as-you-go arrears, which stay what they were (not the card's to pay).
  if (!quote.canPay && o.channel !== 'card') throw new RpcError(ERROR_CODES.INSUFFICIENT_BALANCE);

  const at = new Date(o.now);
  const [pkg] = await tx
    .insert(ruPackages)
    .values({
      accountId: o.accountId,
      skuId: o.sku.id,
      skuVersion: o.catalogueVersion,
      type: o.sku.type,
      name: o.sku.name,
      tier: o.sku.tier,
      ruTotal: o.sku.ru,
      paygCentsPerMillionRu: o.sku.paygCentsPerMillionRu,
      arrearsLimitCents: o.sku.arrearsLimitCents,
      autoRenew: o.autoRenew && o.sku.canAutoRenew,
      renewChannel: o.renewChannel ?? 'wallet',
      renewCardId: o.renewCardId ?? null,
      startsAt: at,
      expiresAt: new Date(quote.expiresAt),
      createdAt: at,
    })
    .returning();
  const [purchase] = await tx
    .insert(purchases)
    .values({
      accountId: o.accountId,
      userId: o.userId,
      requestKey: o.requestKey,
      skuId: o.sku.id,
      skuVersion: o.catalogueVersion,
      type: o.sku.type,
      name: o.sku.name,
      reason: o.reason,
      channel: o.channel ?? 'crypto',
      priceCents: quote.priceCents,
      discountCents: quote.discountCents,
      paidCents: quote.payCents,
      discountCode: quote.discountCode,
      ru: o.sku.ru,
      packageId: pkg!.id,
      createdAt: at,
    })
    .returning();
  // Every paid purchase gets its invoice in this transaction, so a rollback leaves no gap in the numbers.
  if (quote.payCents > 0) {
    if (!o.seller) throw new Error('a paid purchase needs the seller its invoice prints');
    await issueInvoice(tx, { purchase: purchase!, seller: o.seller, now: o.now });
  }
  if (quote.payCents > 0)
    await postMoney(tx, {
      accountId: o.accountId,
      delta: -quote.payCents,
      kind: 'purchase',
      ref: purchase!.id,
      at: o.now,
    });
  if (o.sku.ru > 0)
    await appendRuLedger(tx, {
      accountId: o.accountId,
      delta: o.sku.ru,
      kind: 'package',
      ref: pkg!.id,
      at: o.now,
    });
  if (quote.discount)
    await tx
      .update(accountDiscounts)
      .set({ usedAt: at, purchaseId: purchase!.id })
      .where(
        and(
          eq(accountDiscounts.accountId, o.accountId),
          eq(accountDiscounts.code, quote.discount.code),
          isNull(accountDiscounts.usedAt),
        ),
      );
  // A balance below zero (the gateway's one-call overdraw) is paid from the new RUs first.
  await reconcilePackages(tx, { accountId: o.accountId, now: o.now, ref: purchase!.id });
  // A pay-as-you-go package changes the allowance even when it costs nothing (no money posting to re-derive it).
  await refreshPaygAllowance(tx, o.accountId, o.now);
  const tierChanged = await refreshAccountTier(tx, o.accountId, o.now);
  const [fresh] = await tx.select().from(ruPackages).where(eq(ruPackages.id, pkg!.id));

  const notice =
    NOTICE_OF[o.reason === 'grant' && o.sku.type === 'enterprise' ? 'enterprise' : o.reason];
  const notices = await raiseNotice({
    db: tx,
    at: o.now,
    type: notice.type,
    // every owner and admin of the account hears of it (a team's purchase too)
    accountId: o.accountId,
    title: notice.title,
    content: `${o.sku.name.en}: ${o.sku.ru.toLocaleString('en-US')} RU, paid ${formatUsd(quote.payCents)}.`,
    expand: {
      skuName: o.sku.name.en,
      name: o.sku.name.en,
      amount: o.sku.ru,
      usdAmount: formatCents(quote.payCents),
      timeStamp: quote.expiresAt,
    },
  });
  return { purchase: purchase!, pkg: fresh!, isNew: true, tierChanged, notices };
}

/** The notice each kind of purchase raises (SPEC §3 notice types). */
const NOTICE_OF: Record<TPurchaseReason | 'enterprise', { type: TNoticeType; title: string }> = {
  purchase: { type: 'buy_package', title: 'Package bought' },
  auto_renew: { type: 'auto_renew_success', title: 'Package renewed' },
  monthly_free: { type: 'monthly_gift', title: 'Monthly free RUs' },
  grant: { type: 'credit_package_sent', title: 'Credit package received' },
  enterprise: { type: 'message_enterprise_package_send', title: 'Enterprise package ready' },
};

function formatUsd(cents: number): string {
  return `$${formatCents(cents)}`;
}
