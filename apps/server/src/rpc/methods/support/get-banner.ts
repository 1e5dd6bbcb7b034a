import { getLiveBanner } from '../../../services/support/banners';
import { userHandler } from '../../define-handler';

export const getBannerHandler = userHandler('hub_getBanner', ({ ctx, auth, params }) =>
  getLiveBanner({ deps: ctx, userId: auth.userId, language: params.language }),
);
