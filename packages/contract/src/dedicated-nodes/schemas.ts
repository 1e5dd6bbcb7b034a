/**
 * Dedicated nodes (SPEC §3 node status, §7 Dedicated nodes): a node of one chain, type and region, bought for a
 * number of months from a versioned catalogue and reached at a private endpoint of the gateway.
 * Design: docs/decisions/dedicated-nodes.md.
 */
import { z } from 'zod';
import { ZCardOrderSchema } from '../cards/schemas';
import { ZCentsSchema, ZLocalizedTextSchema, ZWalletPageParamsSchema } from '../wallet/schemas';

/** SPEC §3, in its order. */
export const DN_STATUSES = ['online', 'stopped', 'pending', 'will_expired', 'expired'] as const;
export const DN_NODE_TYPES = ['full', 'archive'] as const;
export const DN_ORDER_KINDS = ['buy', 'renew'] as const;

/** A node turns will_expired this many days before its expiry (a notice and a mail say so). */
export const DN_WILL_EXPIRE_DAYS = 3;
/** An expired node's data is kept this many days; until then it can be renewed, after that never. */
export const DN_GRACE_DAYS = 7;
/** The longest period one order may buy (the catalogue lists the periods actually sold). */
export const DN_MAX_MONTHS = 36;

export const ZDnStatusSchema = z.enum(DN_STATUSES);
export type TDnStatus = z.infer<typeof ZDnStatusSchema>;
export const ZDnNodeTypeSchema = z.enum(DN_NODE_TYPES);
export type TDnNodeType = z.infer<typeof ZDnNodeTypeSchema>;

const CATALOGUE_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** A chain id of the dedicated-node catalogue, e.g. "localnet", "ethereum". */
export const ZDnChainIdSchema = z.string().trim().regex(CATALOGUE_ID, 'not a network id');
export const ZDnRegionIdSchema = z.string().trim().regex(CATALOGUE_ID, 'not a region id');
export const ZDnMonthsSchema = z.number().int().min(1).max(DN_MAX_MONTHS);
export const ZDnNodeIdSchema = z.uuid();
/** What the buyer saw and accepted, in cents: a different price now answers 10703 and charges nothing. */
export const ZDnExpectedCentsSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

export const ZDnNodeTypeOfferSchema = z.object({
  type: ZDnNodeTypeSchema,
  /** list price of one month, USD cents */
  monthlyCents: z.number().int().positive().max(100_000_000),
});

/** A chain as the catalogue offers it: its node types with their monthly prices, and the regions it runs in. */
export const ZDnChainOfferSchema = z.object({
  id: ZDnChainIdSchema,
  name: ZLocalizedTextSchema,
  nodeTypes: z.array(ZDnNodeTypeOfferSchema).min(1),
  /** region ids (ZDnRegionSchema) */
  regions: z.array(ZDnRegionIdSchema).min(1),
});
export type TDnChainOffer = z.infer<typeof ZDnChainOfferSchema>;

export const ZDnRegionSchema = z.object({ id: ZDnRegionIdSchema, name: ZLocalizedTextSchema });

/** A period sold, with the discount its length earns (percent off the list price). */
export const ZDnPeriodSchema = z.object({
  months: ZDnMonthsSchema,
  discountPercent: z.number().int().min(0).max(90),
});
export type TDnPeriod = z.infer<typeof ZDnPeriodSchema>;

export const ZDnSkuSchema = z.object({
  /** the catalogue version (apps/server/config/dn-skus.json): orders record it */
  version: z.string(),
  currency: z.literal('USD'),
  chains: z.array(
    ZDnChainOfferSchema.extend({
      /** this server can run nodes of the chain now (its driver can provision it); else shown, not sold */
      isAvailable: z.boolean(),
    }),
  ),
  regions: z.array(ZDnRegionSchema),
  periods: z.array(ZDnPeriodSchema),
  willExpireDays: z.number().int(),
  graceDays: z.number().int(),
});
export type TDnSku = z.infer<typeof ZDnSkuSchema>;

/**
 * The price of `months` months at `monthlyCents`, less the period's discount, in whole cents (the discount rounds
 * down, so the buyer never pays a fraction more). The server charges exactly this; the web shows it.
 */
export function dnPriceCents(
  monthlyCents: number,
  months: number,
  discountPercent: number,
): number {
  const gross = monthlyCents * months;
  return gross - Math.floor((gross * discountPercent) / 100);
}

/** `at` plus whole calendar months in UTC; a day past the new month's end lands on its last day (Jan 31 → Feb 28). */
export function addMonthsUtc(at: number, months: number): number {
  const d = new Date(at);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d.getTime();
}

/**
 * Why a node's status changed (or, for restarted, why its process was started again), as a code the web words:
 * ordered · answering: provisioned and answering · expires_soon: within DN_WILL_EXPIRE_DAYS of its expiry ·
 * term_ended · renewed · renewed_in_grace: renewed after expiry, starting again · data_deleted: the grace period
 * ended · restarted: its process was gone and was started again · stopped_by_operator · started_by_operator.
 */
export const DN_EVENT_REASONS = [
  'ordered',
  'answering',
  'expires_soon',
  'term_ended',
  'renewed',
  'renewed_in_grace',
  'data_deleted',
  'restarted',
  'stopped_by_operator',
  'started_by_operator',
] as const;
export const ZDnEventReasonSchema = z.enum(DN_EVENT_REASONS);
export type TDnEventReason = z.infer<typeof ZDnEventReasonSchema>;

export const ZDnEventSchema = z.object({
  status: ZDnStatusSchema,
  at: z.number().int(),
  reason: ZDnEventReasonSchema,
});

export const ZDnNodeSchema = z.object({
  id: z.string(),
  chain: z.string(),
  chainName: ZLocalizedTextSchema,
  nodeType: ZDnNodeTypeSchema,
  region: z.string(),
  regionName: ZLocalizedTextSchema,
  status: ZDnStatusSchema,
  /**
   * The node's private endpoint at the gateway; `{key}` stands for one of the account's API keys (only the owner's
   * keys reach it).
   */
  endpoint: z.object({ httpUrlTemplate: z.string(), wsUrlTemplate: z.string() }),
  createdAt: z.number().int(),
  /** the last time it came online; null until it first does */
  onlineAt: z.number().int().nullable(),
  expiresAt: z.number().int(),
  /** the end of the grace period: until then an expired node keeps its data and can be renewed */
  graceEndsAt: z.number().int(),
  dataDeletedAt: z.number().int().nullable(),
  /** months paid for so far (the purchase and every renewal) */
  months: z.number().int(),
  /** can be renewed now (not past its grace period) */
  isRenewable: z.boolean(),
  /** automatic renewal is not offered yet */
  autoRenew: z.boolean(),
  /** every status change with its time, oldest first */
  history: z.array(ZDnEventSchema),
});
export type TDnNode = z.infer<typeof ZDnNodeSchema>;

export const ZDnOrderSchema = z.object({
  id: z.string(),
  kind: z.enum(DN_ORDER_KINDS),
  nodeId: z.string(),
  months: z.number().int(),
  monthlyCents: ZCentsSchema,
  discountPercent: z.number().int(),
  priceCents: ZCentsSchema,
  channel: z.enum(['wallet', 'card']),
  skuVersion: z.string(),
  /** the node's expiry before this order (null for the purchase) and after it */
  expiresBefore: z.number().int().nullable(),
  expiresAfter: z.number().int(),
  createdAt: z.number().int(),
});
export type TDnOrder = z.infer<typeof ZDnOrderSchema>;

/** What a node is bought as: the params of both ways to pay. */
export const ZDnTermsSchema = z.object({
  chain: ZDnChainIdSchema,
  nodeType: ZDnNodeTypeSchema,
  region: ZDnRegionIdSchema,
  months: ZDnMonthsSchema,
});

/** hub_getUserDnNodeView: SPEC §9 paging, newest first by default, optionally one status. */
export const ZDnNodePageParamsSchema = ZWalletPageParamsSchema.extend({
  status: z.union([z.literal('all'), ZDnStatusSchema]).default('all'),
});

/**
 * A card order for a node (the card path of hub_buyDnNodeByCard / hub_renewDnNodeByCard): the card order of
 * hub_buyPackageByCard with the node it is for.
 */
export const ZDnCardOrderSchema = ZCardOrderSchema.extend({
  kind: z.enum(['dn_buy', 'dn_renew']),
});
