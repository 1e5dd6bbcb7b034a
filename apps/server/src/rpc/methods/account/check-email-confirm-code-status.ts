import { checkEmailConfirmCodeStatus } from '../../../services/account/check-email-confirm-code-status';
import { publicHandler } from '../../define-handler';

export const checkEmailConfirmCodeStatusHandler = publicHandler(
  'hub_checkEmailConfirmCodeStatus',
  ({ ctx, params }) => checkEmailConfirmCodeStatus({ ...ctx, ...params }),
);
