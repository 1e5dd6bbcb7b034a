import { getApiKeyNeedUpgrade } from '../../../services/api-keys/get-api-key-need-upgrade';
import { userHandler } from '../../define-handler';

export const getApiKeyNeedUpgradeHandler = userHandler(
  'hub_getApiKeyNeedUpgrade',
  ({ ctx, auth }) => getApiKeyNeedUpgrade({ ...ctx, auth }),
);
