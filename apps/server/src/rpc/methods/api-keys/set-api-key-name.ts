import { setApiKeyName } from '../../../services/api-keys/set-api-key-name';
import { userHandler } from '../../define-handler';

export const setApiKeyNameHandler = userHandler('hub_setApiKeyName', ({ ctx, auth, params }) =>
  setApiKeyName({ ...ctx, auth, ...params }),
);
