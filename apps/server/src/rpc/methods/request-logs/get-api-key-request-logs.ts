import { ERROR_CODES } from '@rpc/contract';
import { getApiKeyRequestLogs } from '../../../services/request-logs/get-api-key-request-logs';
import { RequestLogError } from '../../../services/request-logs/request-log-error';
import { userHandler } from '../../define-handler';
import { RpcError } from '../../errors';

export const getApiKeyRequestLogsHandler = userHandler(
  'hub_getApiKeyRequestLogs',
  async ({ ctx, auth, params }) => {
    try {
      return await getApiKeyRequestLogs({ deps: ctx, caller: auth, params });
    } catch (err) {
      // Another account's key, a deleted one, or none: the same answer, so nothing about it is revealed.
      if (err instanceof RequestLogError) throw new RpcError(ERROR_CODES.NOT_FOUND, { cause: err });
      throw err;
    }
  },
);
