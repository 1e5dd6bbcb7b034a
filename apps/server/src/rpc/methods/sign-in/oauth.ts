/** Handlers of third-party sign-in (OAuth 2 / OpenID Connect); the work is in services/sign-in/oauth-flow.ts. */
import {
  bindOauth,
  checkOauthCode,
  getOauthBindUrl,
  getOauthLoginUrl,
  oauthRegister,
  unbindOauth,
} from '../../../services/sign-in/oauth-flow';
import { publicHandler, userHandler, type THandler } from '../../define-handler';

type TOauthNames =
  | 'hub_getOauthLoginUrl'
  | 'hub_getOauthBindUrl'
  | 'hub_checkOauthCode'
  | 'hub_oauthRegister'
  | 'hub_bindOauth'
  | 'hub_unbindOauth';

export const OAUTH_HANDLERS: { [N in TOauthNames]: THandler<N> } = {
  hub_getOauthLoginUrl: publicHandler('hub_getOauthLoginUrl', ({ ctx, params }) =>
    getOauthLoginUrl(ctx, params),
  ),
  hub_getOauthBindUrl: userHandler('hub_getOauthBindUrl', ({ ctx, auth, params }) =>
    getOauthBindUrl(ctx, auth, params),
  ),
  hub_checkOauthCode: publicHandler('hub_checkOauthCode', ({ ctx, params }) =>
    checkOauthCode(ctx, params),
  ),
  hub_oauthRegister: publicHandler('hub_oauthRegister', ({ ctx, params }) =>
    oauthRegister(ctx, params),
  ),
  hub_bindOauth: userHandler('hub_bindOauth', ({ ctx, auth, params }) =>
    bindOauth(ctx, auth, params),
  ),
  hub_unbindOauth: userHandler('hub_unbindOauth', ({ ctx, auth, params }) =>
    unbindOauth(ctx, auth, params),
  ),
};
