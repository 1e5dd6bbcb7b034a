import { setApiKeyBundler } from '../../../services/api-keys/set-api-key-bundler';
import { userHandler } from '../../define-handler';

export const setApiKeyBundlerHandler = userHandler(
  'hub_setApiKeyBundler',
  ({ ctx, auth, params }) => setApiKeyBundler({ ...ctx, auth, ...params }),
);
