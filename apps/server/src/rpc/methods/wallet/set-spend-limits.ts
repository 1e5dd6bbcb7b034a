import { setSpendLimits } from '../../../services/wallet/spend-limits';
import { userHandler } from '../../define-handler';
import { caller } from './caller';

export const setSpendLimitsHandler = userHandler('hub_setSpendLimits', ({ ctx, auth, params }) =>
  setSpendLimits(ctx, caller(auth), params),
);
