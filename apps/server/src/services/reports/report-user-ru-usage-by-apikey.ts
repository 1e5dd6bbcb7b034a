import type { TParams, TResult } from '@rpc/contract';
import { openReport, type TReportOptions } from './open-report';
import { measureSeriesResult } from './report-series';

export async function reportUserRuUsageByApikey(
  o: TReportOptions & TParams<'hub_reportUserRuUsageByApikey'>,
): Promise<TResult<'hub_reportUserRuUsageByApikey'>> {
  return measureSeriesResult(await openReport(o), 'key', 'ru');
}
