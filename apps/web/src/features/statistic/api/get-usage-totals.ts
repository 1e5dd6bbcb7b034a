/** Totals over the range: hub_reportUserCompositeInfo for the account, hub_reportApikeyCompositeInfo for one key. */
import type { TReportCompositeInfo, TReportParamsIn } from '@rpc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { REPORTS_QUERY_KEY, REPORT_STALE_MS } from './report-query-key';

export function getUsageTotals(params: TReportParamsIn, signal?: AbortSignal) {
  if (params.scope === 'apikey' && params.keyId) {
    const { scope: _scope, keyId, ...range } = params;
    return callRpc('hub_reportApikeyCompositeInfo', { ...range, keyId }, { signal });
  }
  return callRpc('hub_reportUserCompositeInfo', params, { signal });
}

export function getUsageTotalsQueryOptions(
  params: TReportParamsIn,
  placeholder?: TReportCompositeInfo,
) {
  return queryOptions({
    queryKey: [...REPORTS_QUERY_KEY, 'totals', params],
    queryFn: ({ signal }) => getUsageTotals(params, signal),
    staleTime: REPORT_STALE_MS,
    placeholderData: (previous) => previous ?? placeholder,
  });
}

export function useUsageTotals(
  params: TReportParamsIn,
  opts: { enabled: boolean; placeholder?: TReportCompositeInfo | undefined },
) {
  return useQuery({
    ...getUsageTotalsQueryOptions(params, opts.placeholder),
    enabled: opts.enabled,
  });
}
