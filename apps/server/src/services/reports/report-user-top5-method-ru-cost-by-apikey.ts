import type { TParams, TResult } from '@rpc/contract';
import { openReport, type TReportOptions } from './open-report';
import { topMethods } from './report-totals';

export async function reportUserTop5MethodRuCostByApikey(
  o: TReportOptions & TParams<'hub_reportUserTop5MethodRuCostByApikey'>,
): Promise<TResult<'hub_reportUserTop5MethodRuCostByApikey'>> {
  return topMethods(await openReport(o));
}
