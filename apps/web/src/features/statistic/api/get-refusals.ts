/** hub_reportUserRefusals: calls the gateway refused, per bucket and code, with the node errors beside them. */
import type { TReportParamsIn } from '@rpc/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { REPORTS_QUERY_KEY, REPORT_STALE_MS } from './report-query-key';

export function getRefusals(params: TReportParamsIn, signal?: AbortSignal) {
  return callRpc('hub_reportUserRefusals', params, { signal });
}

export function getRefusalsQueryOptions(params: TReportParamsIn) {
  return queryOptions({
    queryKey: [...REPORTS_QUERY_KEY, 'refusals', params],
    queryFn: ({ signal }) => getRefusals(params, signal),
    staleTime: REPORT_STALE_MS,
    placeholderData: keepPreviousData,
  });
}

export function useRefusals(params: TReportParamsIn, opts: { enabled: boolean }) {
  return useQuery({ ...getRefusalsQueryOptions(params), enabled: opts.enabled });
}
