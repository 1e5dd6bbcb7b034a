import type { TParams, TResult } from '@rpc/contract';
import { openReport, type TReportOptions } from './open-report';
import { usageByApikey } from './report-totals';

export async function reportUsageInfoByApikey(
  o: TReportOptions & TParams<'hub_reportUsageInfoByApikey'>,
): Promise<TResult<'hub_reportUsageInfoByApikey'>> {
  return { list: await usageByApikey(await openReport(o)) };
}
