/**
 * An operator's grant: a package given, not bought (an enterprise package arranged with sales, or RUs credited as
 * a goodwill or credit package). Same path as a purchase at price 0, request key grant:<ref> (so a grant run twice
 * gives once), raising message_enterprise_package_send or credit_package_sent.
 */
import type { TSku } from '@rpc/contract';
import type { TDatabase } from '@rpc/db';
import { purchasePackage, type TPurchaseOutcome } from './purchase-package';

export type TGrant = {
  accountId: string;
  /** the operator's reference (ticket, contract number): the same ref grants once */
  ref: string;
  type: 'enterprise' | 'standard';
  name: { en: string; zh: string };
  ru: number;
  validityDays: number;
  tier: string;
  now: number;
};

export async function grantPackage(db: TDatabase, g: TGrant): Promise<TPurchaseOutcome> {
  if (!Number.isSafeInteger(g.ru) || g.ru <= 0)
    throw new Error('a grant needs a positive whole RU amount');
  if (!Number.isInteger(g.validityDays) || g.validityDays <= 0)
    throw new Error('validity must be whole days');
  const sku: TSku = {
    id: g.type === 'enterprise' ? 'enterprise' : 'credit',
    type: g.type,
    name: g.name,
    description: g.name,
    ru: g.ru,
    priceCents: 0,
    validityDays: g.validityDays,
    tier: g.tier,
    paygCentsPerMillionRu: null,
    arrearsLimitCents: null,
    isMonthlyFree: false,
    isPurchasable: false,
    canAutoRenew: false,
  };
  return db.transaction((tx) =>
    purchasePackage(tx, {
      accountId: g.accountId,
      userId: null,
      sku,
      catalogueVersion: 'grant',
      requestKey: `grant:${g.ref}`,
      reason: 'grant',
      autoRenew: false,
      useDiscount: false,
      now: g.now,
    }),
  );
}
