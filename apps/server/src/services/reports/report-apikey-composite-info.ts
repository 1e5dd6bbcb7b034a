import type { TParams, TResult } from '@rpc/contract';
import { openReport, type TReportOptions } from './open-report';
import { compositeInfo } from './report-totals';

export async function reportApikeyCompositeInfo(
  o: TReportOptions & TParams<'hub_reportApikeyCompositeInfo'>,
): Promise<TResult<'hub_reportApikeyCompositeInfo'>> {
  return compositeInfo(await openReport(o));
}
