/**
 * hub_getDnSku: the dedicated-node catalogue (chains with node types and monthly prices, regions, periods with
 * their discounts). Prices on screen are worked out from it with the contract's dnPriceCents, as the server does.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { DN_QUERY_KEY } from './dn-query-keys';

export function getDnSku(signal?: AbortSignal) {
  return callRpc('hub_getDnSku', {}, { signal });
}

export function getDnSkuQueryOptions() {
  return queryOptions({
    // The catalogue is the same for every account.
    queryKey: [...DN_QUERY_KEY, 'sku'],
    queryFn: ({ signal }) => getDnSku(signal),
    staleTime: 60_000,
  });
}

export function useDnSku() {
  return useQuery(getDnSkuQueryOptions());
}
