/**
 * Usage over time, stacked: hub_reportUserRequestByApikey / hub_reportUserRuUsageByApikey (by key),
 * hub_reportUserCompositeInfoByNetwork (by network, both metrics in one answer), or for one key by network
 * hub_reportApikeyRequest / hub_reportApikeyRuUsage.
 */
import type { TReportParamsIn, TReportSeriesResult } from '@rpc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import type { TUsageAnswer } from '../utils/chart-options';
import { toSeriesResult } from '../utils/chart-options';
import type { TMetric, TStackBy } from '../utils/filters';
import { REPORTS_QUERY_KEY, REPORT_STALE_MS } from './report-query-key';

export type TUsageOverTimeInput = { params: TReportParamsIn; metric: TMetric; stackBy: TStackBy };

/** Which method answers a selection; the composite one serves both metrics (switching needs no call). */
export function usageMethod({ params, metric, stackBy }: TUsageOverTimeInput) {
  if (stackBy === 'network') {
    if (params.scope === 'apikey' && params.keyId)
      return metric === 'ru' ? 'hub_reportApikeyRuUsage' : 'hub_reportApikeyRequest';
    return 'hub_reportUserCompositeInfoByNetwork';
  }
  return metric === 'ru' ? 'hub_reportUserRuUsageByApikey' : 'hub_reportUserRequestByApikey';
}

export function getUsageOverTime(
  input: TUsageOverTimeInput,
  signal?: AbortSignal,
): Promise<TUsageAnswer> {
  const method = usageMethod(input);
  const { params } = input;
  if (method === 'hub_reportApikeyRequest' || method === 'hub_reportApikeyRuUsage') {
    const { scope: _scope, keyId, ...range } = params;
    return callRpc(method, { ...range, keyId: keyId! }, { signal });
  }
  return callRpc(method, params, { signal });
}

export function getUsageOverTimeQueryOptions(
  input: TUsageOverTimeInput,
  placeholder?: TReportSeriesResult,
) {
  const method = usageMethod(input);
  return queryOptions({
    queryKey: [...REPORTS_QUERY_KEY, method, input.params],
    queryFn: ({ signal }): Promise<TUsageAnswer> => getUsageOverTime(input, signal),
    select: (answer: TUsageAnswer) => toSeriesResult(answer, input.metric),
    staleTime: REPORT_STALE_MS,
    // The last chart stays while the next range loads (the cached-stats copy on a revisit).
    placeholderData: (previous) => previous ?? placeholder,
  });
}

export function useUsageOverTime(
  input: TUsageOverTimeInput,
  opts: { enabled: boolean; placeholder?: TReportSeriesResult | undefined },
) {
  return useQuery({
    ...getUsageOverTimeQueryOptions(input, opts.placeholder),
    enabled: opts.enabled,
  });
}
