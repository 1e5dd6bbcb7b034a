import type { TParams, TResult } from '@rpc/contract';
import { openReport, type TReportOptions } from './open-report';
import { measureSeriesResult } from './report-series';

export async function reportApikeyRuUsage(
  o: TReportOptions & TParams<'hub_reportApikeyRuUsage'>,
): Promise<TResult<'hub_reportApikeyRuUsage'>> {
  return measureSeriesResult(await openReport(o), 'chain', 'ru');
}
