import type { TParams, TResult } from '@rpc/contract';
import { openReport, type TReportOptions } from './open-report';
import { measureSeriesResult } from './report-series';

export async function reportUserRuUsage(
  o: TReportOptions & TParams<'hub_reportUserRuUsage'>,
): Promise<TResult<'hub_reportUserRuUsage'>> {
  return measureSeriesResult(await openReport(o), 'total', 'ru');
}
