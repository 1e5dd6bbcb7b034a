import { getDiscountCodeDetail } from '../../../services/wallet/discount-codes';
import { userHandler } from '../../define-handler';
import { caller } from './caller';

export const getUserDiscountCodeDetailHandler = userHandler(
  'hub_getUserDiscountCodeDetail',
  ({ ctx, auth }) => getDiscountCodeDetail(ctx, caller(auth)),
);
