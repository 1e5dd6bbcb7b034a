/** hub_getSkuList: the SKU catalogue (packages for sale, pay-as-you-go, the monthly free SKU). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export function getSkuList(signal?: AbortSignal) {
  return callRpc('hub_getSkuList', {}, { signal });
}

export function getSkuListQueryOptions(scope: string) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, 'skus'],
    queryFn: ({ signal }) => getSkuList(signal),
  });
}

export function useSkuList() {
  return useQuery(getSkuListQueryOptions(useWalletScope()));
}
