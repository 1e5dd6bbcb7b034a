/** Wallet methods (SPEC §7 Wallet): balance, SKUs and packages, discount codes. Deposits: ../deposits. */
import { z } from 'zod';
import { defineMethod } from '../define-method';
import {
  ZDiscountCodeSchema,
  ZDiscountDetailSchema,
  ZIdempotencyKeySchema,
  ZLocalizedTextSchema,
  ZPackageIdSchema,
  ZPackageSchema,
  ZPackageStatusSchema,
  ZPackageTypeFilterSchema,
  ZPaymentChannelFilterSchema,
  ZPurchaseSchema,
  ZQuoteSchema,
  ZSkuIdSchema,
  ZSkuSchema,
  ZSpendLimitsInputSchema,
  ZSpendLimitsSchema,
  ZWalletOverviewSchema,
  ZWalletPageParamsSchema,
  pagedResult,
} from './schemas';

export const hubGetUserWalletOverview = defineMethod({
  name: 'hub_getUserWalletOverview',
  summary:
    'The acting account’s wallet: amount and arrears (USD), RUs left, tier, active packages in spending order.',
  params: z.object({}),
  result: ZWalletOverviewSchema,
  auth: 'user',
  permission: 'view',
  keepDuplicates: true,
});

export const hubGetSkuList = defineMethod({
  name: 'hub_getSkuList',
  summary:
    'The SKU catalogue (versioned data): packages for sale, pay-as-you-go, the monthly free SKU.',
  params: z.object({}),
  result: z.object({ version: z.string(), currency: z.literal('USD'), list: z.array(ZSkuSchema) }),
  auth: 'user',
  permission: 'view',
  keepDuplicates: true,
});

export const hubSkuFirstConfirm = defineMethod({
  name: 'hub_skuFirstConfirm',
  summary:
    'What buying a SKU from the wallet would do, before it is done: price, discount, wallet after, tier, expiry.',
  params: z.object({ skuId: ZSkuIdSchema, useDiscount: z.boolean().default(true) }),
  result: ZQuoteSchema,
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

export const hubBuyPackage = defineMethod({
  name: 'hub_buyPackage',
  summary:
    'Buys a SKU from the wallet balance. The same idempotency key answers the same purchase and pays once; ' +
    'expectedPayCents (from hub_skuFirstConfirm) refuses a price that changed in between (10703).',
  params: z.object({
    skuId: ZSkuIdSchema,
    idempotencyKey: ZIdempotencyKeySchema,
    autoRenew: z.boolean().default(false),
    useDiscount: z.boolean().default(true),
    expectedPayCents: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  }),
  result: z.object({
    purchase: ZPurchaseSchema,
    package: ZPackageSchema,
    wallet: ZWalletOverviewSchema,
  }),
  auth: 'user',
  permission: 'billing',
});

export const hubGetFreeSkuBuyFreeType = defineMethod({
  name: 'hub_getFreeSkuBuyFreeType',
  summary:
    'Claims the monthly free SKU for the current calendar month (UTC); a second claim in the month changes nothing.',
  params: z.object({ skuId: ZSkuIdSchema }),
  result: z.object({
    claimed: z.boolean(),
    package: ZPackageSchema,
    /** start of the next month, when the next claim opens */
    nextClaimAt: z.number().int(),
  }),
  auth: 'user',
  permission: 'billing',
});

export const hubGetEnterpriseInfo = defineMethod({
  name: 'hub_getEnterpriseInfo',
  summary:
    'How to get an enterprise package (contact) and the acting account’s enterprise packages.',
  params: z.object({}),
  result: z.object({
    contactEmail: z.string(),
    features: z.array(ZLocalizedTextSchema),
    packages: z.array(ZPackageSchema),
  }),
  auth: 'user',
  permission: 'view',
});

export const hubGetViewUserPurchaseInfo = defineMethod({
  name: 'hub_getViewUserPurchaseInfo',
  summary:
    'Purchase history of the acting account, paged, filtered by payment channel and package type.',
  params: ZWalletPageParamsSchema.extend({
    channel: ZPaymentChannelFilterSchema.default('all'),
    packageType: ZPackageTypeFilterSchema.default('all'),
  }),
  result: pagedResult(ZPurchaseSchema),
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

export const hubGetViewUsedInfo = defineMethod({
  name: 'hub_getViewUsedInfo',
  summary: 'Packages of the acting account with RUs used and left and their expiry, paged.',
  params: ZWalletPageParamsSchema.extend({
    packageType: ZPackageTypeFilterSchema.default('all'),
    status: z.union([z.literal('all'), ZPackageStatusSchema]).default('all'),
  }),
  result: pagedResult(ZPackageSchema),
  auth: 'user',
  permission: 'view',
});

export const hubSetUserAutoRenew = defineMethod({
  name: 'hub_setUserAutoRenew',
  summary:
    'Turns auto-renewal of one package on or off: renewed from the wallet when it runs out or expires.',
  params: z.object({ packageId: ZPackageIdSchema, autoRenew: z.boolean() }),
  result: ZPackageSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubSetUserDiscountCode = defineMethod({
  name: 'hub_setUserDiscountCode',
  summary:
    'Attaches a discount code to the acting account; the next matching purchase uses it once.',
  params: z.object({ code: ZDiscountCodeSchema }),
  result: ZDiscountDetailSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubGetUserDiscountCodeDetail = defineMethod({
  name: 'hub_getUserDiscountCodeDetail',
  summary: 'The discount code attached to the acting account, or null.',
  params: z.object({}),
  result: ZDiscountDetailSchema.nullable(),
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

export const hubGetSpendLimits = defineMethod({
  name: 'hub_getSpendLimits',
  summary:
    'The acting account’s monthly spend limits (RU and money caps, alert thresholds, alert or stop) and this month so far.',
  params: z.object({}),
  result: ZSpendLimitsSchema,
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

export const hubSetSpendLimits = defineMethod({
  name: 'hub_setSpendLimits',
  summary:
    'Sets the monthly spend limits. With action stop, reaching a cap stops the account’s keys until the month ends ' +
    'or the cap is raised; alerts arrive as notices and mail once per threshold and month.',
  params: ZSpendLimitsInputSchema,
  result: ZSpendLimitsSchema,
  auth: 'user',
  permission: 'billing',
});

/** The wallet domain's methods, merged into the catalogue by ../methods.ts. */
export const WALLET_METHODS = [
  hubGetUserWalletOverview,
  hubGetSkuList,
  hubSkuFirstConfirm,
  hubBuyPackage,
  hubGetFreeSkuBuyFreeType,
  hubGetEnterpriseInfo,
  hubGetViewUserPurchaseInfo,
  hubGetViewUsedInfo,
  hubSetUserAutoRenew,
  hubSetUserDiscountCode,
  hubGetUserDiscountCodeDetail,
  hubGetSpendLimits,
  hubSetSpendLimits,
] as const;
