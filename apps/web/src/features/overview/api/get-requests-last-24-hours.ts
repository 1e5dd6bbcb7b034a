/** hub_reportUserRequestByApikey over the last 24 hours by hour: the landing page's sparkline. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import type { TOverviewRange } from './get-today-totals';

export function getRequestsLast24Hours(range: TOverviewRange, signal?: AbortSignal) {
  return callRpc(
    'hub_reportUserRequestByApikey',
    { ...range, bucket: 'hour', scope: 'team' },
    { signal },
  );
}

export function getRequestsLast24HoursQueryOptions(range: TOverviewRange) {
  return queryOptions({
    queryKey: ['reports', 'overview', 'requests-24h', range],
    queryFn: ({ signal }) => getRequestsLast24Hours(range, signal),
    staleTime: 60_000,
  });
}

export function useRequestsLast24Hours(range: TOverviewRange) {
  return useQuery(getRequestsLast24HoursQueryOptions(range));
}
