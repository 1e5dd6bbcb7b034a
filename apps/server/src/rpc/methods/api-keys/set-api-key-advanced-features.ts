import { setApiKeyAdvancedFeatures } from '../../../services/api-keys/set-api-key-advanced-features';
import { userHandler } from '../../define-handler';

export const setApiKeyAdvancedFeaturesHandler = userHandler(
  'hub_setApiKeyAdvancedFeatures',
  ({ ctx, auth, params }) => setApiKeyAdvancedFeatures({ ...ctx, auth, ...params }),
);
