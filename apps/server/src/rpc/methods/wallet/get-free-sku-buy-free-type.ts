import { claimMonthlyFree } from '../../../services/wallet/claim-monthly-free';
import { userHandler } from '../../define-handler';
import { caller } from './caller';

export const getFreeSkuBuyFreeTypeHandler = userHandler(
  'hub_getFreeSkuBuyFreeType',
  ({ ctx, auth, params }) => claimMonthlyFree(ctx, caller(auth), params),
);
