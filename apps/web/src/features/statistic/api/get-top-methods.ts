/**
 * The five methods that cost the most RUs: hub_reportUserTop5MethodRuCostByNetwork when the page is stacked by
 * network, hub_reportUserTop5MethodRuCostByApikey otherwise (both honour the key and network filters).
 */
import type { TReportParamsIn, TTopMethodsResult } from '@rpc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import type { TStackBy } from '../utils/filters';
import { REPORTS_QUERY_KEY, REPORT_STALE_MS } from './report-query-key';

export function topMethodsMethod(stackBy: TStackBy) {
  return stackBy === 'network'
    ? 'hub_reportUserTop5MethodRuCostByNetwork'
    : 'hub_reportUserTop5MethodRuCostByApikey';
}

export function getTopMethods(params: TReportParamsIn, stackBy: TStackBy, signal?: AbortSignal) {
  return callRpc(topMethodsMethod(stackBy), params, { signal });
}

export function getTopMethodsQueryOptions(
  params: TReportParamsIn,
  stackBy: TStackBy,
  placeholder?: TTopMethodsResult,
) {
  return queryOptions({
    queryKey: [...REPORTS_QUERY_KEY, topMethodsMethod(stackBy), params],
    queryFn: ({ signal }) => getTopMethods(params, stackBy, signal),
    staleTime: REPORT_STALE_MS,
    placeholderData: (previous) => previous ?? placeholder,
  });
}

export function useTopMethods(
  params: TReportParamsIn,
  stackBy: TStackBy,
  opts: { enabled: boolean; placeholder?: TTopMethodsResult | undefined },
) {
  return useQuery({
    ...getTopMethodsQueryOptions(params, stackBy, opts.placeholder),
    enabled: opts.enabled,
  });
}
