import type { TParams, TResult } from '@rpc/contract';
import { openReport, type TReportOptions } from './open-report';
import { measureSeriesResult } from './report-series';

export async function reportApikeyRequest(
  o: TReportOptions & TParams<'hub_reportApikeyRequest'>,
): Promise<TResult<'hub_reportApikeyRequest'>> {
  return measureSeriesResult(await openReport(o), 'chain', 'requests');
}
