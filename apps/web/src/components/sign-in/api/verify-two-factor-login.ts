/**
 * hub_verifyTwoFactorLogin: trades a pending sign-in (the token a sign-in answered with twoFactorRequired) and a
 * code for a full session. The pending token travels only on these calls, never in the cookie.
 */
import { ERROR_CODES } from '@rpc/contract';
import { callRpc } from '../../../lib/rpc-client';

/**
 * The pending sign-in is over (expired, five wrong codes, or not pending at all): back to the first step.
 * 10104 belongs here too: whatever answers it, this sign-in cannot be finished from where it stands.
 */
export const ENDED_SIGN_IN_CODES: readonly number[] = [
  ERROR_CODES.SESSION_MISSING,
  ERROR_CODES.SESSION_EXPIRED,
  ERROR_CODES.SESSION_REVOKED,
  ERROR_CODES.TWO_FACTOR_PENDING,
];

/** Codes the step shows itself: a wrong code on the field, an ended sign-in by going back. */
const PENDING_SIGN_IN_CODES = [ERROR_CODES.TWO_FACTOR_INVALID, ...ENDED_SIGN_IN_CODES];

export function verifyTwoFactorLogin(pendingToken: string, code: string) {
  return callRpc(
    'hub_verifyTwoFactorLogin',
    { code },
    // keepSession: a dead pending sign-in is not the console's session; the step goes back itself.
    { token: pendingToken, keepSession: true, silentCodes: PENDING_SIGN_IN_CODES },
  );
}

/** Ends a pending sign-in the user walked away from (best effort: it expires in minutes anyway). */
export function abandonPendingSignIn(pendingToken: string) {
  return callRpc(
    'hub_logout',
    {},
    { token: pendingToken, keepSession: true, hideError: true },
  ).then(
    () => undefined,
    () => undefined,
  );
}
