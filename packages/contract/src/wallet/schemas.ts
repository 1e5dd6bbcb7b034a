/**
 * Wallet, RU packages and crypto deposits (SPEC §3 wallet, payment-channel and package-type filters; §7 Wallet).
 * Money crosses the API as integer minor units (`…Cents`, USD cents) plus a decimal string for display; token
 * amounts as decimal strings of base units, never floats (ARCHITECTURE.md "Money and RUs are integers").
 */
import { z } from 'zod';

export const PACKAGE_TYPES = ['standard', 'default', 'free', 'enterprise'] as const;
export const PACKAGE_TYPE_FILTERS = ['all', ...PACKAGE_TYPES] as const;
/** SPEC §3: crypto (cobo) and card (stripe). A purchase from the wallet balance is a crypto one: crypto funds it. */
export const PAYMENT_CHANNELS = ['crypto', 'card'] as const;
export const PAYMENT_CHANNEL_FILTERS = ['all', ...PAYMENT_CHANNELS] as const;
export const PACKAGE_STATUSES = ['active', 'exhausted', 'expired', 'replaced'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;
export const DEPOSIT_STATUSES = ['pending', 'confirmed', 'orphaned'] as const;

export const ZPackageTypeSchema = z.enum(PACKAGE_TYPES);
export const ZPackageTypeFilterSchema = z.enum(PACKAGE_TYPE_FILTERS);
export const ZPaymentChannelSchema = z.enum(PAYMENT_CHANNELS);
export const ZPaymentChannelFilterSchema = z.enum(PAYMENT_CHANNEL_FILTERS);
export const ZPackageStatusSchema = z.enum(PACKAGE_STATUSES);
export const ZSortOrderSchema = z.enum(SORT_ORDERS);
export const ZDepositStatusSchema = z.enum(DEPOSIT_STATUSES);

/** Cents as a JSON number: exact up to 2^53, far beyond any wallet. */
export const ZCentsSchema = z
  .number()
  .int()
  .min(-Number.MAX_SAFE_INTEGER)
  .max(Number.MAX_SAFE_INTEGER);
/** "12.34": cents written for display (the web parses it to a number, SPEC §3). */
export const ZUsdSchema = z.string().regex(/^-?\d+\.\d{2}$/);

export const ZSkuIdSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'not a SKU id');
export const ZPackageIdSchema = z.uuid();
/** A caller-chosen key that makes a purchase request safe to retry (same key, same purchase, once). */
export const ZIdempotencyKeySchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'not an idempotency key (8–64 letters, digits, - or _)');
export const ZDiscountCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9-]{4,32}$/, 'not a discount code');

export const ZLocalizedTextSchema = z.object({ en: z.string(), zh: z.string() });

export const ZSkuSchema = z.object({
  id: ZSkuIdSchema,
  type: ZPackageTypeSchema,
  name: ZLocalizedTextSchema,
  description: ZLocalizedTextSchema,
  /** RUs the package carries; 0 for pay-as-you-go, whose RUs are billed as used */
  ru: z.number().int().nonnegative(),
  priceCents: ZCentsSchema,
  /** days from purchase to expiry */
  validityDays: z.number().int().positive(),
  /** rate-limit tier while the package is active (apps/gateway/config/tiers.json) */
  tier: z.string(),
  /** pay-as-you-go price, cents per million RU */
  paygCentsPerMillionRu: z.number().int().nonnegative().nullable(),
  /** how far pay-as-you-go may run the wallet below zero */
  arrearsLimitCents: ZCentsSchema.nullable(),
  /** claimed with hub_getFreeSkuBuyFreeType, once per calendar month (UTC) */
  isMonthlyFree: z.boolean(),
  /** can be bought with hub_buyPackage (enterprise packages are arranged with sales) */
  isPurchasable: z.boolean(),
  canAutoRenew: z.boolean(),
});
export type TSku = z.infer<typeof ZSkuSchema>;

export const ZPackageSchema = z.object({
  id: ZPackageIdSchema,
  skuId: z.string(),
  type: ZPackageTypeSchema,
  name: ZLocalizedTextSchema,
  status: ZPackageStatusSchema,
  tier: z.string(),
  ruTotal: z.number().int().nonnegative(),
  ruUsed: z.number().int().nonnegative(),
  ruLeft: z.number().int().nonnegative(),
  startsAt: z.number().int(),
  /** null: never expires (the register gift) */
  expiresAt: z.number().int().nullable(),
  autoRenew: z.boolean(),
  /** what an auto-renewal charges: the wallet, or a saved card (hub_setAutoRenewByCard) */
  renewChannel: z.enum(['wallet', 'card']),
  createdAt: z.number().int(),
});
export type TPackage = z.infer<typeof ZPackageSchema>;

export const ZWalletOverviewSchema = z.object({
  currency: z.literal('USD'),
  /** what the wallet holds (never negative) */
  amount: ZUsdSchema,
  amountCents: ZCentsSchema,
  /** what pay-as-you-go owes beyond the wallet (never negative) */
  arrears: ZUsdSchema,
  arrearsCents: ZCentsSchema,
  /** RUs left in active packages */
  ruLeft: z.number().int(),
  tier: z.string(),
  isPaygActive: z.boolean(),
  /** active packages, the one spent first first */
  packages: z.array(ZPackageSchema),
});
export type TWalletOverview = z.infer<typeof ZWalletOverviewSchema>;

export const ZQuoteSchema = z.object({
  skuId: z.string(),
  skuVersion: z.string(),
  isFirstPurchase: z.boolean(),
  priceCents: ZCentsSchema,
  discountCents: ZCentsSchema,
  payCents: ZCentsSchema,
  walletCents: ZCentsSchema,
  walletAfterCents: ZCentsSchema,
  canPay: z.boolean(),
  tierBefore: z.string(),
  tierAfter: z.string(),
  expiresAt: z.number().int(),
  discountCode: z.string().nullable(),
});
export type TQuote = z.infer<typeof ZQuoteSchema>;

export const ZPurchaseSchema = z.object({
  id: z.string(),
  skuId: z.string(),
  skuName: ZLocalizedTextSchema,
  packageType: ZPackageTypeSchema,
  channel: ZPaymentChannelSchema,
  /** what bought it: a user's purchase, an auto-renewal, the monthly free claim or an operator's grant */
  reason: z.enum(['purchase', 'auto_renew', 'monthly_free', 'grant']),
  priceCents: ZCentsSchema,
  discountCents: ZCentsSchema,
  paidCents: ZCentsSchema,
  ru: z.number().int().nonnegative(),
  packageId: z.string(),
  createdAt: z.number().int(),
});
export type TPurchase = z.infer<typeof ZPurchaseSchema>;

export const ZDiscountDetailSchema = z.object({
  code: z.string(),
  percentOff: z.number().int().min(0).max(100),
  /** SKUs it applies to; empty: every purchasable SKU */
  skuIds: z.array(z.string()),
  expiresAt: z.number().int().nullable(),
  /** it applies once; set when a purchase used it */
  usedAt: z.number().int().nullable(),
});
export type TDiscountDetail = z.infer<typeof ZDiscountDetailSchema>;

export const ZCoinSchema = z.object({
  /** e.g. "USDT" */
  coin: z.string(),
  name: z.string(),
  /** chain id of the console's chain catalogue, e.g. "localnet" */
  chain: z.string(),
  chainName: z.string(),
  /** ERC-20 contract, or null for the chain's native coin */
  contract: z.string().nullable(),
  decimals: z.number().int().min(0).max(36),
  confirmations: z.number().int().positive(),
  /** smallest deposit credited, in base units (decimal string) */
  minDeposit: z.string(),
  /** USD cents credited per whole coin */
  usdCentsPerCoin: z.number().int().positive(),
});
export type TCoin = z.infer<typeof ZCoinSchema>;

export const ZDepositAddressSchema = z.object({
  chain: z.string(),
  address: z.string(),
  coins: z.array(z.string()),
});

export const ZDepositSchema = z.object({
  id: z.string(),
  chain: z.string(),
  coin: z.string(),
  txHash: z.string(),
  logIndex: z.number().int(),
  fromAddress: z.string().nullable(),
  toAddress: z.string(),
  /** base units, exact (decimal string) */
  amount: z.string(),
  /** the same amount in whole coins, for display */
  coinAmount: z.string(),
  usdCents: ZCentsSchema,
  status: ZDepositStatusSchema,
  confirmations: z.number().int().nonnegative(),
  requiredConfirmations: z.number().int().positive(),
  blockNumber: z.number().int().nonnegative(),
  createdAt: z.number().int(),
  creditedAt: z.number().int().nullable(),
  channel: ZPaymentChannelSchema,
});
export type TDeposit = z.infer<typeof ZDepositSchema>;

export const ZWalletPageParamsSchema = z.object({
  page: z.number().int().min(1).max(100_000).default(1),
  perPage: z.number().int().min(1).max(100).default(5),
  sort: ZSortOrderSchema.default('desc'),
});

export function pagedResult<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int(),
    perPage: z.number().int(),
  });
}

/** Cents as "12.34" (negative with a leading minus). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export const SPEND_ACTIONS = ['alert', 'stop'] as const;

/** A monthly cap (UTC calendar month); null: none. RU caps in RUs, money caps in cents. */
const ZCapSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable();

export const ZSpendLimitsInputSchema = z.object({
  monthlyRuCap: ZCapSchema,
  monthlyCentsCap: ZCapSchema,
  /** 'alert': notices and mail only; 'stop': the gateway also stops serving the account's keys at a cap */
  action: z.enum(SPEND_ACTIONS),
  /** percentages of a cap to be alerted at (1–100, at most 5) */
  alertPercents: z
    .array(z.number().int().min(1).max(100))
    .max(5)
    .transform((list) => [...new Set(list)].sort((a, b) => a - b)),
});

export const ZSpendLimitsSchema = z.object({
  monthlyRuCap: ZCapSchema,
  monthlyCentsCap: ZCapSchema,
  action: z.enum(SPEND_ACTIONS),
  alertPercents: z.array(z.number().int()),
  /** this month so far: RUs used and cents spent (purchases and pay-as-you-go) */
  month: z.object({ key: z.string(), ruUsed: z.number().int(), centsSpent: ZCentsSchema }),
  /** set while a 'stop' limit is reached: the gateway refuses the account's calls until then */
  blockedUntil: z.number().int().nullable(),
});
export type TSpendLimits = z.infer<typeof ZSpendLimitsSchema>;
