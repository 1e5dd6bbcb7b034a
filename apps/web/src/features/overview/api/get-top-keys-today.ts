/** hub_reportUsageInfoByApikey over today: the keys that used the most RUs, the first five shown. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import type { TOverviewRange } from './get-today-totals';

export const TOP_KEYS_SHOWN = 5;

export function getTopKeysToday(range: TOverviewRange, signal?: AbortSignal) {
  return callRpc(
    'hub_reportUsageInfoByApikey',
    { ...range, bucket: 'hour', scope: 'team' },
    { signal },
  );
}

export function getTopKeysTodayQueryOptions(range: TOverviewRange) {
  return queryOptions({
    queryKey: ['reports', 'overview', 'top-keys', range],
    queryFn: ({ signal }) => getTopKeysToday(range, signal),
    // The server sorts by RUs, most first.
    select: (answer) => answer.list.slice(0, TOP_KEYS_SHOWN),
    staleTime: 60_000,
  });
}

export function useTopKeysToday(range: TOverviewRange) {
  return useQuery(getTopKeysTodayQueryOptions(range));
}
