/** hub_oauthRegister: creates an account (uninitialised, no password) from a registration ticket, and signs in. */
import type { TLanguage } from '@rpc/contract';
import { callRpc } from '../../../lib/rpc-client';

export function oauthRegister(ticket: string, language: TLanguage) {
  return callRpc('hub_oauthRegister', { ticket, language });
}
