/** hub_getUserDiscountCodeDetail: the discount code attached to the acting account, or null. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export function getDiscountCode(signal?: AbortSignal) {
  return callRpc('hub_getUserDiscountCodeDetail', {}, { signal });
}

export function getDiscountCodeQueryOptions(scope: string) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, 'discount'],
    queryFn: ({ signal }) => getDiscountCode(signal),
  });
}

export function useDiscountCode() {
  return useQuery(getDiscountCodeQueryOptions(useWalletScope()));
}
