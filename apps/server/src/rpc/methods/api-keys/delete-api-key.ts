import { deleteApiKey } from '../../../services/api-keys/delete-api-key';
import { userHandler } from '../../define-handler';

export const deleteApiKeyHandler = userHandler('hub_deleteApiKey', ({ ctx, auth, params }) =>
  deleteApiKey({ ...ctx, auth, ...params }),
);
