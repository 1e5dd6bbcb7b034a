/**
 * Usage and money reports (SPEC §7 Reports). Every report reads only the acting account's rows; a keyId of another
 * account answers 10605. The two money reports (purchases, deposits) take the same frame but no key.
 */
import { defineMethod } from '../define-method';
import {
  ZApikeyReportParamsSchema,
  ZReportCompositeInfoSchema,
  ZReportCompositeSeriesResultSchema,
  ZReportParamsSchema,
  ZReportSeriesResultSchema,
  ZRefusalsResultSchema,
  ZMoneyReportParamsSchema,
  ZMoneyReportResultSchema,
  ZPurchaseReportParamsSchema,
  ZTopMethodsResultSchema,
  ZUsageByApikeyRowSchema,
  ZUsageByNetworkRowSchema,
} from './schemas';
import { z } from 'zod';

const RANGE_NOTE =
  'The range is aligned to whole buckets in the caller’s time zone; a reversed, over-long, future or expired (minute detail) range answers 10601–10604.';

export const hubReportUserRuUsage = defineMethod({
  name: 'hub_reportUserRuUsage',
  summary: `RUs used per bucket by the acting account (or one key with scope apikey), as one series "total". ${RANGE_NOTE}`,
  params: ZReportParamsSchema,
  result: ZReportSeriesResultSchema,
  auth: 'user',
  permission: 'view',
});

export const hubReportUserRequestByApikey = defineMethod({
  name: 'hub_reportUserRequestByApikey',
  summary: `Requests per bucket, one series per API key (deleted keys included). ${RANGE_NOTE}`,
  params: ZReportParamsSchema,
  result: ZReportSeriesResultSchema,
  auth: 'user',
  permission: 'view',
});

export const hubReportUserRuUsageByApikey = defineMethod({
  name: 'hub_reportUserRuUsageByApikey',
  summary: `RUs per bucket, one series per API key. ${RANGE_NOTE}`,
  params: ZReportParamsSchema,
  result: ZReportSeriesResultSchema,
  auth: 'user',
  permission: 'view',
});

export const hubReportUserCompositeInfo = defineMethod({
  name: 'hub_reportUserCompositeInfo',
  summary: `Totals over the range for the acting account (or one key): requests, RUs, errors, mean latency, active keys and networks. ${RANGE_NOTE}`,
  params: ZReportParamsSchema,
  result: ZReportCompositeInfoSchema,
  auth: 'user',
  permission: 'view',
});

export const hubReportApikeyRequest = defineMethod({
  name: 'hub_reportApikeyRequest',
  summary: `Requests per bucket of one API key, one series per network. ${RANGE_NOTE}`,
  params: ZApikeyReportParamsSchema,
  result: ZReportSeriesResultSchema,
  auth: 'user',
  permission: 'view',
});

export const hubReportApikeyRuUsage = defineMethod({
  name: 'hub_reportApikeyRuUsage',
  summary: `RUs per bucket of one API key, one series per network. ${RANGE_NOTE}`,
  params: ZApikeyReportParamsSchema,
  result: ZReportSeriesResultSchema,
  auth: 'user',
  permission: 'view',
});

export const hubReportApikeyCompositeInfo = defineMethod({
  name: 'hub_reportApikeyCompositeInfo',
  summary: `Totals over the range for one API key. ${RANGE_NOTE}`,
  params: ZApikeyReportParamsSchema,
  result: ZReportCompositeInfoSchema,
  auth: 'user',
  permission: 'view',
});

export const hubReportUsageInfoByApikey = defineMethod({
  name: 'hub_reportUsageInfoByApikey',
  summary: `Requests, RUs and errors per API key over the range, most RUs first. ${RANGE_NOTE}`,
  params: ZReportParamsSchema,
  result: z.object({ list: z.array(ZUsageByApikeyRowSchema) }),
  auth: 'user',
  permission: 'view',
});

export const hubReportUsageInfoByNetwork = defineMethod({
  name: 'hub_reportUsageInfoByNetwork',
  summary: `Requests, RUs and errors per network over the range, most RUs first. ${RANGE_NOTE}`,
  params: ZReportParamsSchema,
  result: z.object({ list: z.array(ZUsageByNetworkRowSchema) }),
  auth: 'user',
  permission: 'view',
});

export const hubReportUserCompositeInfoByApikey = defineMethod({
  name: 'hub_reportUserCompositeInfoByApikey',
  summary: `Requests and RUs per bucket, one series per API key. ${RANGE_NOTE}`,
  params: ZReportParamsSchema,
  result: ZReportCompositeSeriesResultSchema,
  auth: 'user',
  permission: 'view',
});

export const hubReportUserCompositeInfoByNetwork = defineMethod({
  name: 'hub_reportUserCompositeInfoByNetwork',
  summary: `Requests and RUs per bucket, one series per network. ${RANGE_NOTE}`,
  params: ZReportParamsSchema,
  result: ZReportCompositeSeriesResultSchema,
  auth: 'user',
  permission: 'view',
});

export const hubReportUserTop5MethodRuCostByApikey = defineMethod({
  name: 'hub_reportUserTop5MethodRuCostByApikey',
  summary: `The five methods that cost the most RUs, for one key (scope apikey) or every key (scope team). ${RANGE_NOTE}`,
  params: ZReportParamsSchema,
  result: ZTopMethodsResultSchema,
  auth: 'user',
  permission: 'view',
});

export const hubReportUserTop5MethodRuCostByNetwork = defineMethod({
  name: 'hub_reportUserTop5MethodRuCostByNetwork',
  summary: `The five methods that cost the most RUs on one network (chain) or on all of them. ${RANGE_NOTE}`,
  params: ZReportParamsSchema,
  result: ZTopMethodsResultSchema,
  auth: 'user',
  permission: 'view',
});

export const hubReportUserRefusals = defineMethod({
  name: 'hub_reportUserRefusals',
  summary: `Calls the gateway refused itself (over a rate limit -32005, no RU left -32006, not in an allowlist or key paused -32004, method not offered -32601, chain unavailable -32002) per bucket and code, and the upstream errors per bucket; refusals cost nothing and are not in the usage reports. For the account (or one key with scope apikey) and one network when given. ${RANGE_NOTE}`,
  params: ZReportParamsSchema,
  result: ZRefusalsResultSchema,
  auth: 'user',
  permission: 'view',
});

const MONEY_RANGE_NOTE =
  'The range is aligned to whole buckets in the caller’s time zone; a reversed, over-long or future range answers 10601–10603 (money rows are kept, so minute buckets reach back as far as the 1-day limit allows). The whole acting account only: scope apikey or a keyId answers 10004.';

export const hubReportUserPurchase = defineMethod({
  name: 'hub_reportUserPurchase',
  summary: `USD cents paid for packages per bucket (by purchase time) by the acting account: series "total", then one per package type (standard, default, free, enterprise) bought in the range; the number of purchases (free ones included) and the cents over the range. No chain filter (10004). ${MONEY_RANGE_NOTE}`,
  params: ZPurchaseReportParamsSchema,
  result: ZMoneyReportResultSchema,
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

export const hubReportUserDeposit = defineMethod({
  name: 'hub_reportUserDeposit',
  summary: `USD cents credited by confirmed crypto deposits per bucket (by credit time) to the acting account: series "total", then one per coin; the number of deposits and the cents over the range. With chain, only that network's deposits (an unknown chain answers 10606). ${MONEY_RANGE_NOTE}`,
  params: ZMoneyReportParamsSchema,
  result: ZMoneyReportResultSchema,
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});
