/** What a SKU costs the account now: its price less the attached, unused discount code that applies to it. */
import type { TQuote, TSku } from '@rpc/contract';
import { accountDiscounts, accounts, discountCodes, purchases, type TExecutor } from '@rpc/db';
import { tiers } from '@rpc/gateway';
import { and, eq, isNull } from 'drizzle-orm';
import { tierFromPackages } from './account-tier';

export type TApplicableDiscount = { code: string; percentOff: number };

export async function applicableDiscount(
  tx: TExecutor,
  accountId: string,
  sku: TSku,
  now: number,
): Promise<TApplicableDiscount | undefined> {
  if (sku.priceCents <= 0) return undefined;
  const rows = await tx
    .select({
      code: discountCodes.code,
      percentOff: discountCodes.percentOff,
      skuIds: discountCodes.skuIds,
      expiresAt: discountCodes.expiresAt,
    })
    .from(accountDiscounts)
    .innerJoin(discountCodes, eq(discountCodes.code, accountDiscounts.code))
    .where(and(eq(accountDiscounts.accountId, accountId), isNull(accountDiscounts.usedAt)));
  return rows.find(
    (r) =>
      (r.expiresAt === null || r.expiresAt.getTime() > now) &&
      (r.skuIds.length === 0 || r.skuIds.includes(sku.id)),
  );
}

/** Integer cents off; a discount never makes the price negative. */
export function discountCentsOf(priceCents: number, percentOff: number): number {
  return Math.min(priceCents, Math.floor((priceCents * percentOff) / 100));
}

export async function quoteSku(
  tx: TExecutor,
  o: {
    accountId: string;
    sku: TSku;
    catalogueVersion: string;
    useDiscount: boolean;
    now: number;
  },
): Promise<TQuote & { discount: TApplicableDiscount | undefined }> {
  const [account] = await tx
    .select({ walletCents: accounts.walletCents, tier: accounts.tier })
    .from(accounts)
    .where(eq(accounts.id, o.accountId));
  const walletCents = account?.walletCents ?? 0;
  const discount = o.useDiscount
    ? await applicableDiscount(tx, o.accountId, o.sku, o.now)
    : undefined;
  const discountCents = discount ? discountCentsOf(o.sku.priceCents, discount.percentOff) : 0;
  const payCents = o.sku.priceCents - discountCents;
  const [earlier] = await tx
    .select({ id: purchases.id })
    .from(purchases)
    .where(and(eq(purchases.accountId, o.accountId), eq(purchases.reason, 'purchase')))
    .limit(1);
  const tierBefore = account?.tier ?? 'free';
  const tierNow = await tierFromPackages(tx, o.accountId, o.now);
  return {
    skuId: o.sku.id,
    skuVersion: o.catalogueVersion,
    isFirstPurchase: !earlier,
    priceCents: o.sku.priceCents,
    discountCents,
    payCents,
    walletCents,
    walletAfterCents: walletCents - payCents,
    canPay: walletCents >= payCents,
    tierBefore,
    tierAfter: betterTier(tierNow, o.sku.tier),
    expiresAt: o.now + o.sku.validityDays * 86_400_000,
    discountCode: discount?.code ?? null,
    discount,
  };
}

function betterTier(a: string, b: string): string {
  const rank = (id: string) => tiers.find((t) => t.id === id)?.reqPerSec ?? -1;
  return rank(b) > rank(a) ? b : a;
}
