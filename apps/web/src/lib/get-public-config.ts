/** hub_getConfig: public settings of this installation (support address, gateway URL templates). */
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callRpc } from './rpc-client';

export function getPublicConfig(signal?: AbortSignal) {
  return callRpc('hub_getConfig', {}, { signal });
}

export function getPublicConfigQueryOptions() {
  return queryOptions({
    queryKey: ['public-config'],
    queryFn: ({ signal }) => getPublicConfig(signal),
    // Changes only with a new installation or restart.
    staleTime: Infinity,
  });
}

/** Reads the config on demand (a menu click), from the cache when it is there. */
export function useFetchPublicConfig() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.fetchQuery(getPublicConfigQueryOptions()), [queryClient]);
}
