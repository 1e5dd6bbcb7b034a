/** hub_getRuTable: the RU cost per method and the surcharge rules the gateway bills with. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function getRuTable(signal?: AbortSignal) {
  return callRpc('hub_getRuTable', {}, { signal });
}

export function getRuTableQueryOptions() {
  return queryOptions({
    queryKey: ['ru-table'],
    queryFn: ({ signal }) => getRuTable(signal),
    staleTime: 10 * 60_000,
  });
}

export function useRuTable() {
  return useQuery(getRuTableQueryOptions());
}
