import { sendResetPasswordMail } from '../../../services/account/send-reset-password-mail';
import { publicHandler } from '../../define-handler';

export const sendResetPasswordMailHandler = publicHandler(
  'hub_sendResetPasswordMail',
  ({ ctx, params }) => sendResetPasswordMail({ ...ctx, ...params }),
);
