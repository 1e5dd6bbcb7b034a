import { getPureApiKeys } from '../../../services/api-keys/get-pure-api-keys';
import { userHandler } from '../../define-handler';

export const getPureApiKeysHandler = userHandler('hub_getPureApiKeys', ({ ctx, auth }) =>
  getPureApiKeys({ ...ctx, auth }),
);
