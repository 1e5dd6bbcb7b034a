/**
 * Every wallet query (overview, SKUs, quotes, history, deposits) lives under WALLET_QUERY_KEY, then the acting
 * account (STYLE "Growing" 7): a team's wallet is never shown from the cache while acting as yourself.
 * Purchases, claims, renew switches and deposits invalidate by the prefix.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { TSessionState } from '../../../lib/session';
import { useSession } from '../../../lib/session';

export const WALLET_QUERY_KEY = ['wallet'] as const;

/** "team:<id>" or "user:<account id>"; empty before the profile is known. */
export function walletScope(state: Pick<TSessionState, 'loginType' | 'teamId' | 'user'>): string {
  if (state.loginType === 'team' && state.teamId) return `team:${state.teamId}`;
  return `user:${state.user?.accountId ?? ''}`;
}

export function useWalletScope(): string {
  return useSession(walletScope);
}

/** The part of the key after the scope that names a price quote. */
export const QUOTE_KEY_PART = 'quote';

/**
 * After anything that moves money or packages: every wallet query of every account refreshes, except an open
 * purchase's quote. That quote holds the terms of an attempt whose retry must send them unchanged.
 */
export function invalidateWallet(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    queryKey: WALLET_QUERY_KEY,
    predicate: (query) => query.queryKey[2] !== QUOTE_KEY_PART,
  });
}
