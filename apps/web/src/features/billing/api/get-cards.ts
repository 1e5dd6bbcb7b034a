/**
 * hub_getCreditCardList: the acting account's saved cards (brand, last 4, expiry, default, expired), read from
 * Stripe. isConfigured false: this server has no Stripe keys and the list is empty.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

/** The part of a wallet key after the scope that names the saved cards. */
export const CARDS_KEY_PART = 'cards';

export function getCards(signal?: AbortSignal) {
  return callRpc('hub_getCreditCardList', {}, { signal });
}

export function getCardsQueryOptions(scope: string) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, CARDS_KEY_PART],
    queryFn: ({ signal }) => getCards(signal),
  });
}

export function useCards({ isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getCardsQueryOptions(useWalletScope()), enabled: isEnabled });
}
