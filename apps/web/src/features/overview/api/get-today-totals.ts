/** hub_reportUserCompositeInfo over today (local day, by hour): the landing page's requests and RUs. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import type { TTimeRange } from '../utils/overview';

export type TOverviewRange = TTimeRange & { timeZone: string };

export function getTodayTotals(range: TOverviewRange, signal?: AbortSignal) {
  return callRpc(
    'hub_reportUserCompositeInfo',
    { ...range, bucket: 'hour', scope: 'team' },
    { signal },
  );
}

export function getTodayTotalsQueryOptions(range: TOverviewRange) {
  return queryOptions({
    queryKey: ['reports', 'overview', 'today-totals', range],
    queryFn: ({ signal }) => getTodayTotals(range, signal),
    staleTime: 60_000,
  });
}

export function useTodayTotals(range: TOverviewRange) {
  return useQuery(getTodayTotalsQueryOptions(range));
}
