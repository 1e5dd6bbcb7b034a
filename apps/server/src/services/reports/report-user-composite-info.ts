import type { TParams, TResult } from '@rpc/contract';
import { openReport, type TReportOptions } from './open-report';
import { compositeInfo } from './report-totals';

export async function reportUserCompositeInfo(
  o: TReportOptions & TParams<'hub_reportUserCompositeInfo'>,
): Promise<TResult<'hub_reportUserCompositeInfo'>> {
  return compositeInfo(await openReport(o));
}
