/** What card services use: the wallet's dependencies plus Stripe (null when card payments are not configured). */
import { ERROR_CODES } from '@rpc/contract';
import type Stripe from 'stripe';
import { RpcError } from '../../rpc/errors';
import type { TWalletDeps } from '../wallet/wallet-caller';
import type { TStripeSettings } from './stripe-settings';

export type TCardDeps = TWalletDeps;

export function requireStripe(deps: TCardDeps): TStripeSettings {
  if (!deps.stripe) throw new RpcError(ERROR_CODES.CARDS_NOT_CONFIGURED);
  return deps.stripe;
}

/**
 * Runs one Stripe call. A network failure or a Stripe outage answers 10803 (nothing was charged, try again); a
 * card error is the caller's to read (it is an answer about the card, not a failure of the service).
 */
export async function callStripe<T>(
  deps: TCardDeps,
  what: string,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isCardError(err)) throw err;
    deps.logger.warn({ err: describeStripeError(err), what }, 'stripe call failed');
    throw new RpcError(ERROR_CODES.CARD_PAYMENT_UNAVAILABLE, { cause: err });
  }
}

export function isCardError(err: unknown): err is Stripe.errors.StripeCardError {
  return (
    typeof err === 'object' && err !== null && (err as { type?: string }).type === 'StripeCardError'
  );
}

/** What is safe to log about a Stripe error: its type, code and status, never request data. */
function describeStripeError(err: unknown): Record<string, unknown> {
  if (typeof err !== 'object' || err === null) return { message: String(err) };
  const e = err as { type?: string; code?: string; statusCode?: number; message?: string };
  return { type: e.type, code: e.code, statusCode: e.statusCode, message: e.message };
}
