import { getWalletOverview } from '../../../services/wallet/get-wallet-overview';
import { userHandler } from '../../define-handler';

export const getUserWalletOverviewHandler = userHandler(
  'hub_getUserWalletOverview',
  ({ ctx, auth }) =>
    getWalletOverview(ctx.db, { accountId: auth.account.id, now: ctx.clock.now() }),
);
