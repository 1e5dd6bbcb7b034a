import { changePassword } from '../../../services/account/change-password';
import { userHandler } from '../../define-handler';

export const changePasswordHandler = userHandler('hub_changePassword', ({ ctx, auth, params }) =>
  changePassword({ ...ctx, ...params, auth }),
);
