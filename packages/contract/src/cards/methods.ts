/** Card methods (SPEC §7 Account: saved cards; Wallet: Stripe orders, buying by card, auto-renew by card, polling). */
import { z } from 'zod';
import { defineMethod } from '../define-method';
import {
  ZIdempotencyKeySchema,
  ZPackageIdSchema,
  ZQuoteSchema,
  ZSkuIdSchema,
  ZCentsSchema,
} from '../wallet/schemas';
import {
  TOP_UP_MAX_CENTS,
  TOP_UP_MIN_CENTS,
  ZCardIdSchema,
  ZCardOrderIdSchema,
  ZCardOrderSchema,
  ZCardSchema,
  ZSetupIntentSchema,
  ZSubscriptionSchema,
} from './schemas';

export const hubGetCreditCardList = defineMethod({
  name: 'hub_getCreditCardList',
  summary:
    'The acting account’s saved cards (brand, last 4 digits, expiry, default flag). isConfigured false: card ' +
    'payments are not set up on this server (no Stripe keys) and the list is empty.',
  params: z.object({}),
  result: z.object({ isConfigured: z.boolean(), list: z.array(ZCardSchema) }),
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

export const hubCreateStripeSetup = defineMethod({
  name: 'hub_createStripeSetup',
  summary:
    'Starts saving a card: a Stripe SetupIntent for the acting account, confirmed in the browser with Stripe.js. ' +
    'The first card saved becomes the default.',
  params: z.object({}),
  result: ZSetupIntentSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubSetDefaultCreditCard = defineMethod({
  name: 'hub_setDefaultCreditCard',
  summary: 'Makes a saved card the one purchases and card renewals charge by default.',
  params: z.object({ cardId: ZCardIdSchema }),
  result: z.object({ list: z.array(ZCardSchema) }),
  auth: 'user',
  permission: 'billing',
});

export const hubRemoveCreditCard = defineMethod({
  name: 'hub_removeCreditCard',
  summary:
    'Removes a saved card. Card renewals that used it fall back to the new default card; with no card left they ' +
    'fail and say so (card_auto_scaling_failed).',
  params: z.object({ cardId: ZCardIdSchema }),
  result: z.object({ list: z.array(ZCardSchema) }),
  auth: 'user',
  permission: 'billing',
});

export const hubSkuFirstConfirmCard = defineMethod({
  name: 'hub_skuFirstConfirmCard',
  summary:
    'What buying a SKU by card would cost, before it is done: the price and discount (as hub_skuFirstConfirm) and ' +
    'the card that would be charged.',
  params: z.object({ skuId: ZSkuIdSchema, useDiscount: z.boolean().default(true) }),
  result: ZQuoteSchema.extend({
    card: z.object({ id: z.string(), brand: z.string(), last4: z.string() }).nullable(),
  }),
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

export const hubBuyPackageByCard = defineMethod({
  name: 'hub_buyPackageByCard',
  summary:
    'Buys a SKU by card (the given saved card, else the default). Answers the order: succeeded at once, ' +
    'requires_action (authenticate in the browser with clientSecret, then poll), pending (poll) or failed. The same ' +
    'idempotency key answers the same order and charges once; expectedPayCents refuses a price that changed (10703).',
  params: z.object({
    skuId: ZSkuIdSchema,
    idempotencyKey: ZIdempotencyKeySchema,
    cardId: ZCardIdSchema.optional(),
    useDiscount: z.boolean().default(true),
    autoRenew: z.boolean().default(false),
    expectedPayCents: ZCentsSchema.nonnegative().optional(),
  }),
  result: ZCardOrderSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubCreateStripeOrder = defineMethod({
  name: 'hub_createStripeOrder',
  summary:
    'Tops up the wallet by card (amount in USD cents, $5 to $10,000): answers the order as hub_buyPackageByCard ' +
    'does; once paid the amount is credited to the wallet exactly once.',
  params: z.object({
    amountCents: z.number().int().min(TOP_UP_MIN_CENTS).max(TOP_UP_MAX_CENTS),
    idempotencyKey: ZIdempotencyKeySchema,
    cardId: ZCardIdSchema.optional(),
  }),
  result: ZCardOrderSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubPolling = defineMethod({
  name: 'hub_polling',
  summary:
    'One card order of the acting account, as it stands now (asks Stripe when it is not settled yet). The web app ' +
    'polls it until isSettled; silent (SPEC §8).',
  params: z.object({ orderId: ZCardOrderIdSchema }),
  result: ZCardOrderSchema,
  auth: 'user',
  permission: 'billing',
  readOnly: true,
  hideError: true,
});

export const hubCreateAutoRenewStripeSetup = defineMethod({
  name: 'hub_createAutoRenewStripeSetup',
  summary:
    'Saves a card for renewing one package automatically: once the card is confirmed in the browser the package ' +
    'renews by card (off-session charges) when it runs out or expires.',
  params: z.object({ packageId: ZPackageIdSchema }),
  result: ZSetupIntentSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubSetAutoRenewByCard = defineMethod({
  name: 'hub_setAutoRenewByCard',
  summary:
    'Turns renewal by card on for a package (with a saved card: the given one, else the default) or back to the ' +
    'wallet. hub_setUserAutoRenew with autoRenew false stops renewing altogether.',
  params: z.object({
    packageId: ZPackageIdSchema,
    byCard: z.boolean(),
    cardId: ZCardIdSchema.optional(),
  }),
  result: ZSubscriptionSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubGetSubscriptions = defineMethod({
  name: 'hub_getSubscriptions',
  summary:
    'Packages of the acting account that renew automatically, by wallet or by card, with the next renewal and the ' +
    'card charged. Cancel one with hub_setUserAutoRenew (autoRenew false).',
  params: z.object({}),
  result: z.object({ list: z.array(ZSubscriptionSchema) }),
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

/** The card domain's methods, merged into the catalogue by ../methods.ts. */
export const CARD_METHODS = [
  hubGetCreditCardList,
  hubCreateStripeSetup,
  hubSetDefaultCreditCard,
  hubRemoveCreditCard,
  hubSkuFirstConfirmCard,
  hubBuyPackageByCard,
  hubCreateStripeOrder,
  hubPolling,
  hubCreateAutoRenewStripeSetup,
  hubSetAutoRenewByCard,
  hubGetSubscriptions,
] as const;
