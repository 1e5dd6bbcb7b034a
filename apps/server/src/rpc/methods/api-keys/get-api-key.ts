import { getApiKey } from '../../../services/api-keys/get-api-key';
import { userHandler } from '../../define-handler';

export const getApiKeyHandler = userHandler('hub_getApiKey', ({ ctx, auth, params }) =>
  getApiKey({ ...ctx, auth, ...params }),
);
