/**
 * hub_checkOauthCode: redeems the provider's code at /auth/callback. Silent by the spec (SPEC §8): the callback
 * screen says what went wrong.
 */
import { callRpc } from '../../../lib/rpc-client';

export function checkOauthCode(params: { provider: string; code: string; state: string }) {
  return callRpc('hub_checkOauthCode', params);
}
