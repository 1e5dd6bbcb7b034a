/** Dedicated-node methods (SPEC §7 Dedicated nodes): the catalogue, buying, the list, renewing. */
import { z } from 'zod';
import { defineMethod } from '../define-method';
import { ZCardIdSchema } from '../cards/schemas';
import { ZIdempotencyKeySchema, ZWalletOverviewSchema, pagedResult } from '../wallet/schemas';
import {
  ZDnCardOrderSchema,
  ZDnExpectedCentsSchema,
  ZDnMonthsSchema,
  ZDnNodeIdSchema,
  ZDnNodePageParamsSchema,
  ZDnNodeSchema,
  ZDnOrderSchema,
  ZDnSkuSchema,
  ZDnTermsSchema,
} from './schemas';

const ZDnPaidSchema = z.object({
  order: ZDnOrderSchema,
  node: ZDnNodeSchema,
  wallet: ZWalletOverviewSchema,
});

const ZRenewParamsSchema = z.object({
  nodeId: ZDnNodeIdSchema,
  months: ZDnMonthsSchema,
  idempotencyKey: ZIdempotencyKeySchema,
  expectedCents: ZDnExpectedCentsSchema,
});

export const hubGetDnSku = defineMethod({
  name: 'hub_getDnSku',
  summary:
    'The dedicated-node catalogue (versioned data): chains with their node types (full, archive) and monthly ' +
    'prices, regions, periods with their discounts, and which chains this server can run now.',
  params: z.object({}),
  result: ZDnSkuSchema,
  auth: 'user',
  permission: 'view',
  readOnly: true,
});

export const hubBuyDnNodeByWallet = defineMethod({
  name: 'hub_buyDnNodeByWallet',
  summary:
    'Buys a dedicated node from the wallet: pays the price of the period once per idempotency key (the same key ' +
    'answers the same order; with other terms 10706), refuses a price other than expectedCents (10703) and a ' +
    'wallet short of it (10701). The node starts pending and comes online once provisioned and answering.',
  params: ZDnTermsSchema.extend({
    idempotencyKey: ZIdempotencyKeySchema,
    expectedCents: ZDnExpectedCentsSchema,
  }),
  result: ZDnPaidSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubBuyDnNodeByCard = defineMethod({
  name: 'hub_buyDnNodeByCard',
  summary:
    'Buys a dedicated node by card (the given saved card, else the default), answering the card order as ' +
    'hub_buyPackageByCard does; follow it with hub_polling. Once paid, the node is ordered exactly as by wallet ' +
    '(nodeId set); a payment that can no longer buy it (price or catalogue changed) is credited to the wallet.',
  params: ZDnTermsSchema.extend({
    idempotencyKey: ZIdempotencyKeySchema,
    expectedCents: ZDnExpectedCentsSchema,
    cardId: ZCardIdSchema.optional(),
  }),
  result: ZDnCardOrderSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubGetUserDnNodeView = defineMethod({
  name: 'hub_getUserDnNodeView',
  summary:
    'The acting account’s dedicated nodes, paged (SPEC §9), optionally of one status: status, private endpoint, ' +
    'expiry, grace period and the history of status changes.',
  params: ZDnNodePageParamsSchema,
  result: pagedResult(ZDnNodeSchema),
  auth: 'user',
  permission: 'view',
  readOnly: true,
});

export const hubRenewDnNodeByWallet = defineMethod({
  name: 'hub_renewDnNodeByWallet',
  summary:
    'Renews a node from the wallet for more months, counted from its expiry or from now if later. A node expired ' +
    'within its grace period comes back (pending, then online); past it 10906. Idempotent per key like buying.',
  params: ZRenewParamsSchema,
  result: ZDnPaidSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubRenewDnNodeByCard = defineMethod({
  name: 'hub_renewDnNodeByCard',
  summary:
    'Renews a node by card, answering the card order (follow it with hub_polling). Once paid, the node is renewed ' +
    'exactly as by wallet; a payment that can no longer renew it (past its grace period) is credited to the wallet.',
  params: ZRenewParamsSchema.extend({ cardId: ZCardIdSchema.optional() }),
  result: ZDnCardOrderSchema,
  auth: 'user',
  permission: 'billing',
});

/** The dedicated-node domain's methods, merged into the catalogue by ../methods.ts. */
export const DN_METHODS = [
  hubGetDnSku,
  hubBuyDnNodeByWallet,
  hubBuyDnNodeByCard,
  hubGetUserDnNodeView,
  hubRenewDnNodeByWallet,
  hubRenewDnNodeByCard,
] as const;
