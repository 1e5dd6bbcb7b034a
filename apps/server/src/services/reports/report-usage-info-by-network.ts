import type { TParams, TResult } from '@rpc/contract';
import { openReport, type TReportOptions } from './open-report';
import { usageByNetwork } from './report-totals';

export async function reportUsageInfoByNetwork(
  o: TReportOptions & TParams<'hub_reportUsageInfoByNetwork'>,
): Promise<TResult<'hub_reportUsageInfoByNetwork'>> {
  return { list: await usageByNetwork(await openReport(o)) };
}
