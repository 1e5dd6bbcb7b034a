import { getApiKeys } from '../../../services/api-keys/get-api-keys';
import { userHandler } from '../../define-handler';

export const getApiKeysHandler = userHandler('hub_getApiKeys', ({ ctx, auth, params }) =>
  getApiKeys({ ...ctx, auth, ...params }),
);
