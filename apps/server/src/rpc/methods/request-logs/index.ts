/** Handlers of the request-log domain (packages/contract/src/request-logs/methods.ts). */
import type { REQUEST_LOG_METHODS, TNamesOf } from '@rpc/contract';
import type { THandler } from '../../define-handler';
import { getApiKeyRequestLogsHandler } from './get-api-key-request-logs';

export const REQUEST_LOG_HANDLERS: {
  [N in TNamesOf<typeof REQUEST_LOG_METHODS>]: THandler<N>;
} = {
  hub_getApiKeyRequestLogs: getApiKeyRequestLogsHandler,
};
