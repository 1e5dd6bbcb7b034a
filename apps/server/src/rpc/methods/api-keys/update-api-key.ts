import { updateApiKey } from '../../../services/api-keys/update-api-key';
import { userHandler } from '../../define-handler';

export const updateApiKeyHandler = userHandler('hub_updateApiKey', ({ ctx, auth, params }) =>
  updateApiKey({ ...ctx, auth, ...params }),
);
