import { getPackageHistory } from '../../../services/wallet/get-wallet-history';
import { userHandler } from '../../define-handler';

export const getViewUsedInfoHandler = userHandler('hub_getViewUsedInfo', ({ ctx, auth, params }) =>
  getPackageHistory(ctx.db, { accountId: auth.account.id, now: ctx.clock.now(), params }),
);
