import { logout } from '../../../services/account/logout';
import { userHandler } from '../../define-handler';

export const logoutHandler = userHandler('hub_logout', ({ ctx, auth, params }) =>
  logout({ ...ctx, ...params, auth }),
);
