import { setDiscountCode } from '../../../services/wallet/discount-codes';
import { userHandler } from '../../define-handler';
import { caller } from './caller';

export const setUserDiscountCodeHandler = userHandler(
  'hub_setUserDiscountCode',
  ({ ctx, auth, params }) => setDiscountCode(ctx, caller(auth), params),
);
