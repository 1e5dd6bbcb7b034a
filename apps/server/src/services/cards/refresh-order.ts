/**
 * Asks Stripe how an open order's PaymentIntent stands and applies the answer: what hub_polling does when the order
 * is not settled, and what the card order sweep does for orders nobody polls (sweep-card-orders.ts).
 */
import type { TCardOrderRow } from '@rpc/db';
import type Stripe from 'stripe';
import { callStripe, type TCardDeps } from './card-deps';
import { applyPaymentIntent, type TSettleOutcome } from './settle-order';
import type { TStripeSettings } from './stripe-settings';

/** PaymentIntent states that wait for someone to act (the buyer's 3-D Secure, a confirmation): nothing was charged. */
const AWAITING_SOMEONE: Stripe.PaymentIntent.Status[] = [
  'requires_action',
  'requires_confirmation',
];

export type TRefreshOptions = {
  /**
   * The sweep's hard limit: a PaymentIntent still waiting for the buyer is canceled at Stripe, so the order fails
   * on Stripe's own `canceled` and no late 3-D Secure can charge a card for an order given up on.
   */
  isAbandoned?: boolean;
};

export async function refreshOrder(
  deps: TCardDeps,
  stripe: TStripeSettings,
  row: TCardOrderRow & { paymentIntentId: string },
  o: TRefreshOptions = {},
): Promise<TSettleOutcome> {
  let intent = await callStripe(deps, 'paymentIntents.retrieve', () =>
    stripe.client.paymentIntents.retrieve(row.paymentIntentId),
  );
  if (o.isAbandoned && AWAITING_SOMEONE.includes(intent.status)) {
    // A buyer finishing 3-D Secure at this very moment makes the cancel fail (the PaymentIntent is no longer
    // cancelable): the error leaves the order open and the next look finds it succeeded.
    intent = await callStripe(deps, 'paymentIntents.cancel', () =>
      stripe.client.paymentIntents.cancel(row.paymentIntentId, {
        cancellation_reason: 'abandoned',
      }),
    );
    deps.logger.info(
      { orderId: row.id, paymentIntent: intent.id, status: intent.status },
      'abandoned card payment canceled at Stripe',
    );
  }
  return applyPaymentIntent(deps, row.id, intent);
}
