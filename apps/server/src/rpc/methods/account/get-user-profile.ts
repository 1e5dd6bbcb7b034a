import { getUserProfile } from '../../../services/account/get-user-profile';
import { userHandler } from '../../define-handler';

export const getUserProfileHandler = userHandler('hub_getUserProfile', ({ ctx, auth, params }) =>
  getUserProfile({ ...ctx, ...params, auth }),
);
