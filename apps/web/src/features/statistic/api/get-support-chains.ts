/** hub_getSupportChains: the chain catalogue, for the network filter. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function getSupportChains(signal?: AbortSignal) {
  return callRpc('hub_getSupportChains', {}, { signal });
}

export function getSupportChainsQueryOptions() {
  return queryOptions({
    queryKey: ['chains'],
    queryFn: ({ signal }) => getSupportChains(signal),
    staleTime: 5 * 60_000,
  });
}

export function useSupportChains() {
  return useQuery(getSupportChainsQueryOptions());
}
