/** Rows of ru_packages and purchases as the contract shows them. */
import type { TPackage, TPurchase } from '@rpc/contract';
import type { TPurchaseRow, TRuPackageRow } from '@rpc/db';

export function toPackage(row: TRuPackageRow, now: number): TPackage {
  // A package past its expiry that the sweep has not reached yet is shown as what it is.
  const isLapsed =
    row.status === 'active' && row.expiresAt !== null && row.expiresAt.getTime() <= now;
  return {
    id: row.id,
    skuId: row.skuId,
    type: row.type,
    name: row.name,
    status: isLapsed ? 'expired' : row.status,
    tier: row.tier,
    ruTotal: row.ruTotal,
    ruUsed: row.ruUsed,
    ruLeft: isLapsed ? 0 : row.ruTotal - row.ruUsed,
    startsAt: row.startsAt.getTime(),
    expiresAt: row.expiresAt?.getTime() ?? null,
    autoRenew: row.autoRenew,
    renewChannel: row.renewChannel,
    createdAt: row.createdAt.getTime(),
  };
}

export function toPurchase(row: TPurchaseRow): TPurchase {
  return {
    id: row.id,
    skuId: row.skuId,
    skuName: row.name,
    packageType: row.type,
    channel: row.channel,
    reason: row.reason,
    priceCents: row.priceCents,
    discountCents: row.discountCents,
    paidCents: row.paidCents,
    ru: row.ru,
    packageId: row.packageId,
    createdAt: row.createdAt.getTime(),
  };
}
