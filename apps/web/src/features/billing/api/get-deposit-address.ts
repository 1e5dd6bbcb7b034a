/** hub_getDepositAddress: the acting account's address on a chain (one per account and chain, never changes). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export function getDepositAddress(chain: string, signal?: AbortSignal) {
  // Errors (10707, 10708) are shown inside the address card.
  return callRpc('hub_getDepositAddress', { chain }, { signal, hideError: true });
}

export function getDepositAddressQueryOptions(scope: string, chain: string) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, 'address', chain],
    queryFn: ({ signal }) => getDepositAddress(chain, signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

export function useDepositAddress(chain: string | null) {
  const scope = useWalletScope();
  return useQuery({
    ...getDepositAddressQueryOptions(scope, chain ?? ''),
    enabled: chain !== null,
  });
}
