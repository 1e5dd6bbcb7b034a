/** hub_getWalletCoinList: coins and chains deposits are accepted in; empty when deposits are not configured. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY } from './wallet-query-key';

export function getCoinList(signal?: AbortSignal) {
  // 10707 (not configured) is an empty state on the page, not a popup.
  return callRpc('hub_getWalletCoinList', {}, { signal, hideError: true });
}

export function getCoinListQueryOptions() {
  return queryOptions({
    // The operator's configuration, the same for every account.
    queryKey: [...WALLET_QUERY_KEY, 'coins'],
    queryFn: ({ signal }) => getCoinList(signal),
    staleTime: 5 * 60_000,
  });
}

export function useCoinList() {
  return useQuery(getCoinListQueryOptions());
}
