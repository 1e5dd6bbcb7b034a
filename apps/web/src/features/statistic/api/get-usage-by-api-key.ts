/** hub_reportUsageInfoByApikey: requests, RUs and errors per API key over the range, most RUs first. */
import type { TReportParamsIn, TUsageByApikeyRow } from '@rpc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { REPORTS_QUERY_KEY, REPORT_STALE_MS } from './report-query-key';

export function getUsageByApiKey(params: TReportParamsIn, signal?: AbortSignal) {
  return callRpc('hub_reportUsageInfoByApikey', params, { signal });
}

export function getUsageByApiKeyQueryOptions(
  params: TReportParamsIn,
  placeholder?: TUsageByApikeyRow[],
) {
  return queryOptions({
    queryKey: [...REPORTS_QUERY_KEY, 'hub_reportUsageInfoByApikey', params],
    queryFn: ({ signal }) => getUsageByApiKey(params, signal),
    staleTime: REPORT_STALE_MS,
    placeholderData: (previous) => previous ?? (placeholder ? { list: placeholder } : undefined),
  });
}

export function useUsageByApiKey(
  params: TReportParamsIn,
  opts: { enabled: boolean; placeholder?: TUsageByApikeyRow[] | undefined },
) {
  return useQuery({
    ...getUsageByApiKeyQueryOptions(params, opts.placeholder),
    enabled: opts.enabled,
  });
}
