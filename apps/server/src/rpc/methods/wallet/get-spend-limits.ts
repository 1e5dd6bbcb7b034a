import { getSpendLimits } from '../../../services/wallet/spend-limits';
import { userHandler } from '../../define-handler';
import { caller } from './caller';

export const getSpendLimitsHandler = userHandler('hub_getSpendLimits', ({ ctx, auth }) =>
  getSpendLimits(ctx, caller(auth)),
);
