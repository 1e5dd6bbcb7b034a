/**
 * One payment attempt, as the billing purchase dialog pays (features/billing): a fresh idempotency key per attempt,
 * the same key and terms again only when the outcome is unknown, and what a refusal means for the screen.
 * The two helpers mirror features/billing/utils (idempotency.ts, purchase-attempt.ts); features do not import each
 * other, so they belong in lib/ once billing moves there too.
 */
import { ERROR_CODES } from '@rpc/contract';
import { RpcCallError, TRANSPORT_ERROR_CODE, isTimeoutError } from '../../../lib/rpc-client';

/** A fresh key for one payment attempt (8–64 of [A-Za-z0-9_-], as the contract asks). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID();
  }
  // randomUUID needs a secure context; 128 random bits as hex do too.
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** No answer, a timeout, or a failure in front of or inside the API: the payment may have gone through. */
export function isOutcomeUnknown(error: unknown): boolean {
  if (isTimeoutError(error)) return true;
  if (!(error instanceof RpcCallError)) return false;
  if (error.code === TRANSPORT_ERROR_CODE) {
    return error.httpStatus === undefined || error.httpStatus >= 500;
  }
  return error.code === ERROR_CODES.INTERNAL_ERROR;
}

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
