/**
 * Binding and unbinding the wallet and third-party providers (hub_bindMetamask through lib/wallet,
 * hub_unbindMetamask, hub_getOauthBindUrl through lib/oauth-attempt, hub_unbindOauth). The user info lists what
 * is bound, so each change refreshes it. Refusing to remove the last way to sign in (10214) is said in the page.
 */
import { ERROR_CODES } from '@rpc/contract';
import { useMutation } from '@tanstack/react-query';
import { startOauth } from '../../../lib/oauth-attempt';
import { callRpc } from '../../../lib/rpc-client';
import { refreshUser } from '../../../lib/session';
import { bindWallet } from '../../../lib/wallet';

const LAST_METHOD_CODES = [ERROR_CODES.LAST_SIGN_IN_METHOD];

export function unbindWallet() {
  return callRpc('hub_unbindMetamask', {}, { silentCodes: LAST_METHOD_CODES });
}

export function unbindOauth(provider: string) {
  return callRpc('hub_unbindOauth', { provider }, { silentCodes: LAST_METHOD_CODES });
}

const refreshUserQuietly = () => refreshUser().catch(() => undefined);

export function useBindWallet() {
  return useMutation({ mutationFn: bindWallet, onSuccess: refreshUserQuietly });
}

export function useUnbindWallet() {
  return useMutation({ mutationFn: unbindWallet, onSuccess: refreshUserQuietly });
}

export function useUnbindOauth() {
  return useMutation({ mutationFn: unbindOauth, onSuccess: refreshUserQuietly });
}

/** Leaves for the provider; /bind/callback finishes. */
export function useStartOauthBinding() {
  return useMutation({ mutationFn: (provider: string) => startOauth(provider, 'bind') });
}
