/**
 * Card payments through Stripe (SPEC §3 card brands and channel "card" = stripe; §7 Account cards, Wallet Stripe and
 * polling). A card order is one payment: a package bought by card, or a wallet top-up. The web app polls an order
 * (hub_polling) until it settles; the server settles it from Stripe's answer, its webhook or the poll, once.
 */
import { z } from 'zod';
import {
  ZCentsSchema,
  ZLocalizedTextSchema,
  ZPackageIdSchema,
  ZUsdSchema,
} from '../wallet/schemas';

/** SPEC §3 card brands; `unknown` for a brand Stripe reports that the list does not name. */
export const CARD_BRANDS = [
  'visa',
  'visa_debit',
  'mastercard',
  'mastercard_debit',
  'mastercard_prepaid',
  'amex',
  'discover',
  'diners',
  'jcb',
  'unionpay',
  'unknown',
] as const;
export const ZCardBrandSchema = z.enum(CARD_BRANDS);
export type TCardBrand = z.infer<typeof ZCardBrandSchema>;

/** A saved card is a Stripe PaymentMethod id (pm_…). */
export const ZCardIdSchema = z
  .string()
  .trim()
  .regex(/^pm_[A-Za-z0-9_]{1,100}$/, 'not a card id');
export const ZCardOrderIdSchema = z.uuid();

export const ZCardSchema = z.object({
  id: z.string(),
  brand: ZCardBrandSchema,
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  isDefault: z.boolean(),
  /** the card's expiry month has passed */
  isExpired: z.boolean(),
});
export type TCard = z.infer<typeof ZCardSchema>;

/** package and top_up: hub_buyPackageByCard, hub_createStripeOrder · dn_buy and dn_renew: a dedicated node's card orders */
export const CARD_ORDER_KINDS = ['package', 'top_up', 'dn_buy', 'dn_renew'] as const;
/**
 * pending: sent to Stripe, no answer yet · requires_action: the card asks the buyer to authenticate (3-D Secure)
 * in the browser with clientSecret · succeeded: paid and applied · failed: declined or abandoned (nothing charged)
 * · credited: paid, but the package could not be applied (sold out, price changed, arrears): the money is in the
 * wallet instead.
 */
export const CARD_ORDER_STATUSES = [
  'pending',
  'requires_action',
  'succeeded',
  'failed',
  'credited',
] as const;
export const ZCardOrderStatusSchema = z.enum(CARD_ORDER_STATUSES);
export type TCardOrderStatus = z.infer<typeof ZCardOrderStatusSchema>;

export const ZCardOrderSchema = z.object({
  orderId: z.string(),
  kind: z.enum(CARD_ORDER_KINDS),
  status: ZCardOrderStatusSchema,
  /** true once the order will not change any more */
  isSettled: z.boolean(),
  amountCents: ZCentsSchema,
  amount: ZUsdSchema,
  skuId: z.string().nullable(),
  skuName: ZLocalizedTextSchema.nullable(),
  /** only while requires_action: what Stripe.js needs to authenticate the payment in the browser */
  clientSecret: z.string().nullable(),
  purchaseId: z.string().nullable(),
  /**
   * dn_buy: the node the payment bought (null until it is paid) · dn_renew: the node it renews · else null
   */
  nodeId: z.string().nullable(),
  /** Stripe's decline or error code when failed or credited (e.g. card_declined), else null */
  failureCode: z.string().nullable(),
  card: z.object({ brand: ZCardBrandSchema, last4: z.string() }).nullable(),
  createdAt: z.number().int(),
  settledAt: z.number().int().nullable(),
});
export type TCardOrder = z.infer<typeof ZCardOrderSchema>;

export const ZSetupIntentSchema = z.object({
  /** pass to Stripe.js confirmCardSetup / confirmSetup in the browser */
  clientSecret: z.string(),
  setupIntentId: z.string(),
  publishableKey: z.string(),
});

export const ZSubscriptionSchema = z.object({
  packageId: ZPackageIdSchema,
  skuId: z.string(),
  name: ZLocalizedTextSchema,
  priceCents: ZCentsSchema,
  /** when the next renewal is due: the package's expiry (or sooner, if its RUs run out) */
  renewsAt: z.number().int().nullable(),
  channel: z.enum(['wallet', 'card']),
  /** the card a card renewal charges (the account's default card when none is pinned); null: none saved */
  card: z.object({ id: z.string(), brand: ZCardBrandSchema, last4: z.string() }).nullable(),
});

/** A wallet top-up by card: between $5 and $10,000. */
export const TOP_UP_MIN_CENTS = 500;
export const TOP_UP_MAX_CENTS = 1_000_000;
