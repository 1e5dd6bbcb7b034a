/** The per-key request log (issue 16), shown on the endpoint page's "Request log" tab. */
import { defineMethod } from '../define-method';
import {
  DEFAULT_REQUEST_LOG_RETENTION_HOURS,
  REQUEST_LOG_MAX_ROWS_PER_KEY,
  ZRequestLogParamsSchema,
  ZRequestLogResultSchema,
} from './schemas';

export const hubGetApiKeyRequestLogs = defineMethod({
  name: 'hub_getApiKeyRequestLogs',
  summary:
    'The newest calls the gateway settled or refused for one key of the acting account (50404 when it is not ' +
    'the account’s), newest first, SPEC §9 paging: time, chain, method, transport, outcome (ok, rpc_error, ' +
    'refused, upstream_failed, cancelled), JSON-RPC error code, latency and RU; never params, results or ' +
    'bodies. Filters: a part of the method name (any case), outcome (all, ok, errors = rpc_error, ' +
    'upstream_failed and cancelled, refused) and a time range [from, to) in epoch ms. `dropped` counts the ' +
    'calls in the range the gateway did not keep (its caps per key and per flush window; not filtered by ' +
    `method or outcome). Entries are kept ${DEFAULT_REQUEST_LOG_RETENTION_HOURS} hours by default ` +
    `(retentionHours) and at most the ${REQUEST_LOG_MAX_ROWS_PER_KEY} newest per key (maxEntries); new ` +
    'calls appear within seconds (written off the hot path, in batches).',
  params: ZRequestLogParamsSchema,
  result: ZRequestLogResultSchema,
  auth: 'user',
  permission: 'view',
  readOnly: true,
});

/** The request-log domain's methods, merged into the catalogue by ../methods.ts. */
export const REQUEST_LOG_METHODS = [hubGetApiKeyRequestLogs] as const;
