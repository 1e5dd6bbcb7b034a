import { generateApiKey } from '../../../services/api-keys/generate-api-key';
import { userHandler } from '../../define-handler';

export const generateApiKeyHandler = userHandler('hub_generateApiKey', ({ ctx, auth, params }) =>
  generateApiKey({ ...ctx, auth, ...params }),
);
