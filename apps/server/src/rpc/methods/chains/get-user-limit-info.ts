import { getUserLimitInfo } from '../../../services/chains/get-user-limit-info';
import { userHandler } from '../../define-handler';

export const getUserLimitInfoHandler = userHandler('hub_getUserLimitInfo', ({ ctx, auth }) =>
  getUserLimitInfo({ ...ctx, auth }),
);
