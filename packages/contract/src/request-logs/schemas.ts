/** The per-key request log (issue 16): what the gateway kept of each call, never params, results or bodies. */
import { z } from 'zod';
import { ZKeyIdSchema, ZPageParamsSchema } from '../api-keys/schemas';
import { pagedResult } from '../wallet/schemas';

/** Hours entries are kept by default (REQUEST_LOG_RETENTION_HOURS). */
export const DEFAULT_REQUEST_LOG_RETENTION_HOURS = 72;
/** At most this many of a key's newest entries are kept, whatever their age. */
export const REQUEST_LOG_MAX_ROWS_PER_KEY = 1000;

export const REQUEST_LOG_OUTCOMES = [
  'ok',
  'rpc_error',
  'refused',
  'upstream_failed',
  'cancelled',
] as const;
export type TRequestLogOutcome = (typeof REQUEST_LOG_OUTCOMES)[number];

/** The outcome filter: `errors` is every call that went upstream and did not come back ok. */
export const REQUEST_LOG_FILTERS = ['all', 'ok', 'errors', 'refused'] as const;
export type TRequestLogFilter = (typeof REQUEST_LOG_FILTERS)[number];

export const REQUEST_LOG_FILTER_OUTCOMES: Record<
  Exclude<TRequestLogFilter, 'all'>,
  readonly TRequestLogOutcome[]
> = {
  ok: ['ok'],
  errors: ['rpc_error', 'upstream_failed', 'cancelled'],
  refused: ['refused'],
};

export const ZRequestLogEntrySchema = z.object({
  /** epoch ms when the gateway settled or refused the call */
  at: z.number().int(),
  chain: z.string(),
  /** '' when the call had no valid method (or was refused before one was read) */
  method: z.string(),
  transport: z.enum(['http', 'ws']),
  outcome: z.enum(REQUEST_LOG_OUTCOMES),
  /** the JSON-RPC error code of the answer (the gateway's own, or the node's), null when none */
  errorCode: z.number().int().nullable(),
  latencyMs: z.number().int().nonnegative(),
  ru: z.number().int().nonnegative(),
});
export type TRequestLogEntry = z.infer<typeof ZRequestLogEntrySchema>;

const ZEpochMsSchema = z.number().int().min(0).max(8_640_000_000_000_000);

export const ZRequestLogParamsSchema = ZPageParamsSchema.extend({
  keyId: ZKeyIdSchema,
  /** a part of the method name, any case; `%` and `_` match themselves */
  method: z
    .string()
    .trim()
    .max(64)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'contains control characters')
    .optional(),
  outcome: z.enum(REQUEST_LOG_FILTERS).default('all'),
  /** epoch ms, inclusive */
  from: ZEpochMsSchema.optional(),
  /** epoch ms, exclusive */
  to: ZEpochMsSchema.optional(),
}).refine((p) => p.from === undefined || p.to === undefined || p.from < p.to, {
  message: 'from must be before to',
  path: ['to'],
});

export const ZRequestLogResultSchema = pagedResult(ZRequestLogEntrySchema).extend({
  /** entries of this key the gateway did not keep (over its caps) in the range asked, or in the whole log */
  dropped: z.number().int().nonnegative(),
  /** how long entries are kept */
  retentionHours: z.number().int().positive(),
  /** how many of a key's newest entries are kept at most */
  maxEntries: z.number().int().positive(),
});
export type TRequestLogResult = z.infer<typeof ZRequestLogResultSchema>;
