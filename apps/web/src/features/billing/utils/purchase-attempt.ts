/**
 * When a failed purchase may still have been paid. Only then is the same idempotency key sent again (the server
 * answers the first purchase, paying once); after a definite refusal the next try is a new attempt with a new key.
 */
import { ERROR_CODES } from '@rpc/contract';
import { RpcCallError, TRANSPORT_ERROR_CODE, isTimeoutError } from '../../../lib/rpc-client';

export function isOutcomeUnknown(error: unknown): boolean {
  if (isTimeoutError(error)) return true;
  if (!(error instanceof RpcCallError)) return false;
  // No answer, or a gateway error in front of the API: the purchase may have gone through.
  if (error.code === TRANSPORT_ERROR_CODE) {
    return error.httpStatus === undefined || error.httpStatus >= 500;
  }
  return error.code === ERROR_CODES.INTERNAL_ERROR;
}
