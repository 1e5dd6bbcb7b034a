/** hub_reportUsageInfoByNetwork: requests, RUs and errors per network over the range, most RUs first. */
import type { TReportParamsIn, TUsageByNetworkRow } from '@rpc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { REPORTS_QUERY_KEY, REPORT_STALE_MS } from './report-query-key';

export function getUsageByNetwork(params: TReportParamsIn, signal?: AbortSignal) {
  return callRpc('hub_reportUsageInfoByNetwork', params, { signal });
}

export function getUsageByNetworkQueryOptions(
  params: TReportParamsIn,
  placeholder?: TUsageByNetworkRow[],
) {
  return queryOptions({
    queryKey: [...REPORTS_QUERY_KEY, 'hub_reportUsageInfoByNetwork', params],
    queryFn: ({ signal }) => getUsageByNetwork(params, signal),
    staleTime: REPORT_STALE_MS,
    placeholderData: (previous) => previous ?? (placeholder ? { list: placeholder } : undefined),
  });
}

export function useUsageByNetwork(
  params: TReportParamsIn,
  opts: { enabled: boolean; placeholder?: TUsageByNetworkRow[] | undefined },
) {
  return useQuery({
    ...getUsageByNetworkQueryOptions(params, opts.placeholder),
    enabled: opts.enabled,
  });
}
