/**
 * One payment attempt, as the billing purchase dialog pays (features/billing): a fresh idempotency key per attempt,
 * the same key and terms again only when the outcome is unknown, and what a refusal means for the screen.
 * The key and the unknown-outcome rule are shared with billing (lib/payment-attempt.ts).
 */
import { ERROR_CODES } from '@rpc/contract';
import { isOutcomeUnknown } from '../../../lib/payment-attempt';
import { RpcCallError } from '../../../lib/rpc-client';

/** What the payment screens say after an attempt did not pay. */
export type TPaymentFailure =
  | 'unknown'
  | 'insufficient'
  | 'priceChanged'
  | 'cardUnavailable'
  | 'cardRequired'
  | 'cardFailed'
  | 'notProvisionable'
  | 'notRenewable'
  /** any other refusal: the request client has shown it */
  | 'other';

const FAILURE_OF_CODE: Partial<Record<number, TPaymentFailure>> = {
  [ERROR_CODES.INSUFFICIENT_BALANCE]: 'insufficient',
  [ERROR_CODES.PRICE_CHANGED]: 'priceChanged',
  [ERROR_CODES.CARD_PAYMENT_UNAVAILABLE]: 'cardUnavailable',
  [ERROR_CODES.CARDS_NOT_CONFIGURED]: 'cardUnavailable',
  [ERROR_CODES.CARD_REQUIRED]: 'cardRequired',
  [ERROR_CODES.DN_CHAIN_NOT_PROVISIONABLE]: 'notProvisionable',
  [ERROR_CODES.DN_NOT_RENEWABLE]: 'notRenewable',
};

export function paymentFailureOf(error: unknown): TPaymentFailure {
  if (isOutcomeUnknown(error)) return 'unknown';
  const code = error instanceof RpcCallError ? error.code : null;
  return (code !== null && FAILURE_OF_CODE[code]) || 'other';
}

/**
 * How a card order for a node stands when it answers. This screen does not follow an order further (no Stripe.js
 * authentication, no polling; the card path for nodes is not served yet): an open one is reported as processing.
 */
export function cardOrderResult(order: { status: string }): 'paid' | 'declined' | 'processing' {
  if (order.status === 'succeeded') return 'paid';
  if (order.status === 'failed') return 'declined';
  return 'processing';
}
