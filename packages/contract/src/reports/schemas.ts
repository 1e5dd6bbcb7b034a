/** Usage reports (SPEC §3 chart buckets and scope filter, §7 Reports): parameters, limits and result shapes. */
import { z } from 'zod';
import { ZKeyIdSchema } from '../api-keys/schemas';

export const REPORT_BUCKETS = ['minute', 'hour', 'day'] as const;
export type TReportBucket = (typeof REPORT_BUCKETS)[number];
export const ZReportBucketSchema = z.enum(REPORT_BUCKETS);

/** SPEC §3 scope filter: one API key, or the whole (team or personal) account. */
export const REPORT_SCOPES = ['apikey', 'team'] as const;
export type TReportScope = (typeof REPORT_SCOPES)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The longest range each bucket may cover: at most 1,440 minute, 744 hour or 366 day buckets. */
export const REPORT_MAX_RANGE_MS: Record<TReportBucket, number> = {
  minute: DAY_MS,
  hour: 31 * DAY_MS,
  day: 366 * DAY_MS,
};

/** Minute rows are kept this many days by default (server config USAGE_MINUTE_RETENTION_DAYS). */
export const DEFAULT_MINUTE_RETENTION_DAYS = 14;

/** The bucket the console picks for a range: minute up to 3 hours, hour up to 7 days, then day. */
export function pickReportBucket(rangeMs: number): TReportBucket {
  if (rangeMs <= 3 * HOUR_MS) return 'minute';
  if (rangeMs <= 7 * DAY_MS) return 'hour';
  return 'day';
}

/** Chain ids as in the chain catalogue. */
export const ZReportChainSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'not a chain id');

/** Epoch milliseconds, from 1970 to the year 2255. */
const ZEpochMsSchema = z.number().int().min(0).max(9_000_000_000_000);

const rangeShape = {
  /** start of the range, epoch ms; aligned down to the start of its bucket in `timeZone` */
  from: ZEpochMsSchema,
  /** end of the range (exclusive), epoch ms; aligned up to a bucket end, and never past the current bucket */
  to: ZEpochMsSchema,
  bucket: ZReportBucketSchema,
  /** the caller's IANA time zone; day buckets start at its local midnight */
  timeZone: z.string().min(1).max(64).default('UTC'),
  /** only this network */
  chain: ZReportChainSchema.optional(),
};

/**
 * Account-wide reports. `scope` "apikey" narrows to `keyId` (required then); "team" (the default without a
 * keyId) covers every key of the acting account, and takes no keyId.
 */
export const ZReportParamsSchema = z
  .object({
    ...rangeShape,
    scope: z.enum(REPORT_SCOPES).optional(),
    keyId: ZKeyIdSchema.optional(),
  })
  .superRefine((p, ctx) => {
    const scope = p.scope ?? (p.keyId ? 'apikey' : 'team');
    if (scope === 'apikey' && !p.keyId)
      ctx.addIssue({ code: 'custom', path: ['keyId'], message: 'scope apikey needs a keyId' });
    if (scope === 'team' && p.keyId)
      ctx.addIssue({ code: 'custom', path: ['keyId'], message: 'scope team takes no keyId' });
  });
export type TReportParams = z.output<typeof ZReportParamsSchema>;
export type TReportParamsIn = z.input<typeof ZReportParamsSchema>;

/** Reports about one API key. */
export const ZApikeyReportParamsSchema = z.object({ ...rangeShape, keyId: ZKeyIdSchema });
export type TApikeyReportParams = z.output<typeof ZApikeyReportParamsSchema>;

/** The range actually reported: aligned to whole buckets, with every bucket start (epoch ms, ascending). */
export const ZReportFrameSchema = z.object({
  bucket: ZReportBucketSchema,
  timeZone: z.string(),
  from: z.number().int(),
  to: z.number().int(),
  buckets: z.array(z.number().int()),
});
export type TReportFrame = z.infer<typeof ZReportFrameSchema>;

/** One line of a chart: `data[i]` belongs to `buckets[i]`; zero where nothing was used. */
export const ZReportSeriesSchema = z.object({
  /** "total", a key id or a chain id */
  id: z.string(),
  /** key name or chain name */
  name: z.string(),
  /** true for a key deleted since; its usage still counts */
  deleted: z.boolean().optional(),
  data: z.array(z.number().int().nonnegative()),
});
export type TReportSeries = z.infer<typeof ZReportSeriesSchema>;

export const ZReportSeriesResultSchema = ZReportFrameSchema.extend({
  series: z.array(ZReportSeriesSchema),
  /** sum over every series and bucket */
  total: z.number().int().nonnegative(),
});
export type TReportSeriesResult = z.infer<typeof ZReportSeriesResultSchema>;

export const ZReportCompositeSeriesSchema = z.object({
  id: z.string(),
  name: z.string(),
  deleted: z.boolean().optional(),
  requests: z.array(z.number().int().nonnegative()),
  ru: z.array(z.number().int().nonnegative()),
});
export type TReportCompositeSeries = z.infer<typeof ZReportCompositeSeriesSchema>;

export const ZReportCompositeSeriesResultSchema = ZReportFrameSchema.extend({
  series: z.array(ZReportCompositeSeriesSchema),
  totalRequests: z.number().int().nonnegative(),
  totalRu: z.number().int().nonnegative(),
});
export type TReportCompositeSeriesResult = z.infer<typeof ZReportCompositeSeriesResultSchema>;

/** Totals over the range. */
export const ZReportCompositeInfoSchema = z.object({
  from: z.number().int(),
  to: z.number().int(),
  requests: z.number().int().nonnegative(),
  ru: z.number().int().nonnegative(),
  /** calls answered with an error (upstream or JSON-RPC error) */
  errors: z.number().int().nonnegative(),
  /** mean upstream latency, null when there were no calls */
  avgLatencyMs: z.number().nonnegative().nullable(),
  /** keys and networks with at least one call */
  activeKeys: z.number().int().nonnegative(),
  activeNetworks: z.number().int().nonnegative(),
});
export type TReportCompositeInfo = z.infer<typeof ZReportCompositeInfoSchema>;

export const ZUsageByApikeyRowSchema = z.object({
  keyId: z.string(),
  name: z.string(),
  deleted: z.boolean(),
  requests: z.number().int().nonnegative(),
  ru: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  /** share of the range's RUs, 0..1 */
  ruShare: z.number().min(0).max(1),
});
export const ZUsageByNetworkRowSchema = z.object({
  chain: z.string(),
  name: z.string(),
  requests: z.number().int().nonnegative(),
  ru: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  ruShare: z.number().min(0).max(1),
});
export type TUsageByApikeyRow = z.infer<typeof ZUsageByApikeyRowSchema>;
export type TUsageByNetworkRow = z.infer<typeof ZUsageByNetworkRowSchema>;

export const ZTopMethodRowSchema = z.object({
  method: z.string(),
  requests: z.number().int().nonnegative(),
  ru: z.number().int().nonnegative(),
  ruShare: z.number().min(0).max(1),
});
export type TTopMethodRow = z.infer<typeof ZTopMethodRowSchema>;
export const ZTopMethodsResultSchema = z.object({
  from: z.number().int(),
  to: z.number().int(),
  /** at most 5, by RU cost, highest first (ties by name) */
  list: z.array(ZTopMethodRowSchema).max(5),
  /** every method's RUs in the range, so the top 5 can be shown as shares */
  totalRu: z.number().int().nonnegative(),
});
export type TTopMethodsResult = z.infer<typeof ZTopMethodsResultSchema>;

/**
 * The JSON-RPC codes the gateway refuses a known key's calls with (docs/decisions/gateway-design.md): what
 * hub_reportUserRefusals counts. Other codes may appear as the gateway grows; clients show them by number.
 */
export const GATEWAY_REFUSAL_CODES = {
  rateLimited: -32005,
  noRu: -32006,
  notAllowed: -32004,
  notOffered: -32601,
  chainUnavailable: -32002,
} as const;

/** Refusals with one code: `data[i]` belongs to `buckets[i]`. */
export const ZRefusalSeriesSchema = z.object({
  code: z.number().int(),
  data: z.array(z.number().int().nonnegative()),
  /** sum of data */
  total: z.number().int().nonnegative(),
});
export type TRefusalSeries = z.infer<typeof ZRefusalSeriesSchema>;

export const ZRefusalsResultSchema = ZReportFrameSchema.extend({
  /** one series per code, most refusals first */
  series: z.array(ZRefusalSeriesSchema),
  /** refusals over every code and bucket */
  total: z.number().int().nonnegative(),
  /** calls the node answered with an error (or that no node answered), per bucket: usage, not refusals */
  errors: z.array(z.number().int().nonnegative()),
  totalErrors: z.number().int().nonnegative(),
});
export type TRefusalsResult = z.infer<typeof ZRefusalsResultSchema>;

/**
 * Money reports (hub_reportUserPurchase, hub_reportUserDeposit): the same frame, always the whole acting account.
 * Money belongs to an account, never to a key, so scope "apikey" (or a keyId) is refused with 10004 rather than
 * silently widened to the account.
 */
export const ZMoneyReportParamsSchema = ZReportParamsSchema.superRefine((p, ctx) => {
  if (p.scope === 'apikey' || p.keyId !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['scope'],
      message: 'money reports cover the whole account: scope apikey is not offered',
    });
});
export type TMoneyReportParams = z.output<typeof ZMoneyReportParamsSchema>;

/** Purchases are not on a network: a chain filter is refused (10004) rather than ignored. */
export const ZPurchaseReportParamsSchema = ZMoneyReportParamsSchema.superRefine((p, ctx) => {
  if (p.chain !== undefined)
    ctx.addIssue({ code: 'custom', path: ['chain'], message: 'purchases have no network' });
});

/**
 * Integer USD cents per bucket. `series[0]` is always "total"; then one series per package type (purchases) or
 * coin (deposits) with at least one row in the range, most cents first (ties by id).
 */
export const ZMoneyReportResultSchema = ZReportFrameSchema.extend({
  series: z.array(ZReportSeriesSchema),
  /** cents over the range: the sum of the "total" series */
  totalCents: z.number().int().nonnegative(),
  /** purchases made, or deposits credited, in the range (free ones included) */
  count: z.number().int().nonnegative(),
});
export type TMoneyReportResult = z.infer<typeof ZMoneyReportResultSchema>;
