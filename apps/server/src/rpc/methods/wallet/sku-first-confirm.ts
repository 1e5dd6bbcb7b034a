import { skuFirstConfirm } from '../../../services/wallet/buy-package';
import { userHandler } from '../../define-handler';
import { caller } from './caller';

export const skuFirstConfirmHandler = userHandler('hub_skuFirstConfirm', ({ ctx, auth, params }) =>
  skuFirstConfirm(ctx, caller(auth), params),
);
