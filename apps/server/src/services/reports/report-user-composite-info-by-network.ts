import type { TParams, TResult } from '@rpc/contract';
import { openReport, type TReportOptions } from './open-report';
import { compositeSeriesResult } from './report-series';

export async function reportUserCompositeInfoByNetwork(
  o: TReportOptions & TParams<'hub_reportUserCompositeInfoByNetwork'>,
): Promise<TResult<'hub_reportUserCompositeInfoByNetwork'>> {
  return compositeSeriesResult(await openReport(o), 'chain');
}
