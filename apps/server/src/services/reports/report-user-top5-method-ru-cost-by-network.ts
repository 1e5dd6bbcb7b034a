import type { TParams, TResult } from '@rpc/contract';
import { openReport, type TReportOptions } from './open-report';
import { topMethods } from './report-totals';

export async function reportUserTop5MethodRuCostByNetwork(
  o: TReportOptions & TParams<'hub_reportUserTop5MethodRuCostByNetwork'>,
): Promise<TResult<'hub_reportUserTop5MethodRuCostByNetwork'>> {
  return topMethods(await openReport(o));
}
