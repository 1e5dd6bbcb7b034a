import type { TParams, TResult } from '@rpc/contract';
import { openReport, type TReportOptions } from './open-report';
import { measureSeriesResult } from './report-series';

export async function reportUserRequestByApikey(
  o: TReportOptions & TParams<'hub_reportUserRequestByApikey'>,
): Promise<TResult<'hub_reportUserRequestByApikey'>> {
  return measureSeriesResult(await openReport(o), 'key', 'requests');
}
