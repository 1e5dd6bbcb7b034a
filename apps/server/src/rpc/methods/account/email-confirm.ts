import { emailConfirm } from '../../../services/account/email-confirm';
import { publicHandler } from '../../define-handler';

export const emailConfirmHandler = publicHandler('hub_emailConfirm', ({ ctx, params }) =>
  emailConfirm({ ...ctx, ...params }),
);
