import { passwordResetCodeStatus } from '../../../services/account/password-reset-code-status';
import { publicHandler } from '../../define-handler';

export const passwordResetCodeStatusHandler = publicHandler(
  'hub_passwordResetCodeStatus',
  ({ ctx, params }) => passwordResetCodeStatus({ ...ctx, ...params }),
);
