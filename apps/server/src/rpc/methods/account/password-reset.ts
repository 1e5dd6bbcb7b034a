import { passwordReset } from '../../../services/account/password-reset';
import { publicHandler } from '../../define-handler';

export const passwordResetHandler = publicHandler('hub_passwordReset', ({ ctx, params }) =>
  passwordReset({ ...ctx, ...params }),
);
