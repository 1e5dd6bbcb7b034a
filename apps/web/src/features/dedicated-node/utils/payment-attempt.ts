/**
 * One payment attempt, as the billing purchase dialog pays (features/billing): a fresh idempotency key per attempt,
 * the same key and terms again only when the outcome is unknown, and what a refusal means for the screen.
 * The key and the unknown-outcome rule are shared with billing (lib/payment-attempt.ts).
 */
import { ERROR_CODES } from '@rpc/contract';
import { isOutcomeUnknown } from '../../../lib/payment-attempt';
import { RpcCallError } from '../../../lib/rpc-client';

/**
 * What the payment screens say after an attempt was refused or lost. A card order that was answered is followed to
 * its end instead (use-node-card-order.ts): a declined card is said by its progress, not here.
 */
export type TPaymentFailure =
  | 'unknown'
  | 'insufficient'
  | 'priceChanged'
  | 'cardUnavailable'
  | 'cardRequired'
  | 'notProvisionable'
  | 'notRenewable'
  /** any other refusal: the request client has shown it */
  | 'other';

const FAILURE_OF_CODE: Partial<Record<number, TPaymentFailure>> = {
  [ERROR_CODES.INSUFFICIENT_BALANCE]: 'insufficient',
  [ERROR_CODES.PRICE_CHANGED]: 'priceChanged',
  // Stripe is not configured (or not answering) on this server: the wallet still pays.
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
