import type { TParams, TResult } from '@rpc/contract';
import { openReport, type TReportOptions } from './open-report';
import { compositeSeriesResult } from './report-series';

export async function reportUserCompositeInfoByApikey(
  o: TReportOptions & TParams<'hub_reportUserCompositeInfoByApikey'>,
): Promise<TResult<'hub_reportUserCompositeInfoByApikey'>> {
  return compositeSeriesResult(await openReport(o), 'key');
}
