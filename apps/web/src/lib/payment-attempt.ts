/**
 * One payment attempt (packages, top-ups, dedicated nodes): a fresh idempotency key per attempt, and the same key
 * and terms again only when the outcome is unknown (the server answers the first payment, paying once); after a
 * definite refusal the next try is a new attempt with a new key.
 */
import { ERROR_CODES } from '@rpc/contract';
import { RpcCallError, TRANSPORT_ERROR_CODE, isTimeoutError } from './rpc-client';

/** A fresh key for one payment attempt (8–64 of [A-Za-z0-9_-], as the contract asks). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID();
  }
  // Older browsers without randomUUID: 128 random bits as hex, still within the contract's 8–64 characters.
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** When a failed payment may still have gone through. */

export function isOutcomeUnknown(error: unknown): boolean {
  if (isTimeoutError(error)) return true;
  if (!(error instanceof RpcCallError)) return false;
  // No answer, or a gateway error in front of the API: the purchase may have gone through.
  if (error.code === TRANSPORT_ERROR_CODE) {
    return error.httpStatus === undefined || error.httpStatus >= 500;
  }
  return error.code === ERROR_CODES.INTERNAL_ERROR;
}
