import { setAutoRenew } from '../../../services/wallet/set-auto-renew';
import { userHandler } from '../../define-handler';
import { caller } from './caller';

export const setUserAutoRenewHandler = userHandler(
  'hub_setUserAutoRenew',
  ({ ctx, auth, params }) => setAutoRenew(ctx, caller(auth), params),
);
