import { buyPackage } from '../../../services/wallet/buy-package';
import { userHandler } from '../../define-handler';
import { caller } from './caller';

export const buyPackageHandler = userHandler('hub_buyPackage', ({ ctx, auth, params }) =>
  buyPackage(ctx, caller(auth), params),
);
