import { getEnterpriseInfo } from '../../../services/wallet/get-enterprise-info';
import { userHandler } from '../../define-handler';
import { caller } from './caller';

export const getEnterpriseInfoHandler = userHandler('hub_getEnterpriseInfo', ({ ctx, auth }) =>
  getEnterpriseInfo(ctx, caller(auth)),
);
