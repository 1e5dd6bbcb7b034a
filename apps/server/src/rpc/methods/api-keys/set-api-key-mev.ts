import { setApiKeyMev } from '../../../services/api-keys/set-api-key-mev';
import { userHandler } from '../../define-handler';

export const setApiKeyMevHandler = userHandler('hub_setApiKeyMev', ({ ctx, auth, params }) =>
  setApiKeyMev({ ...ctx, auth, ...params }),
);
