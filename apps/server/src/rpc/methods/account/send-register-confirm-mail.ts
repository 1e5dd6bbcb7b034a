import { sendRegisterConfirmMail } from '../../../services/account/send-register-confirm-mail';
import { publicHandler } from '../../define-handler';

export const sendRegisterConfirmMailHandler = publicHandler(
  'hub_sendRegisterConfirmMail',
  ({ ctx, params }) => sendRegisterConfirmMail({ ...ctx, ...params }),
);
