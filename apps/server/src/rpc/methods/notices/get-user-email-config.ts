import { getUserEmailConfig } from '../../../services/notices/email-config';
import { userHandler } from '../../define-handler';

export const getUserEmailConfigHandler = userHandler('hub_getUserEmailConfig', ({ ctx, auth }) =>
  getUserEmailConfig({ ...ctx, auth }),
);
