import { getPurchaseHistory } from '../../../services/wallet/get-wallet-history';
import { userHandler } from '../../define-handler';

export const getViewUserPurchaseInfoHandler = userHandler(
  'hub_getViewUserPurchaseInfo',
  ({ ctx, auth, params }) => getPurchaseHistory(ctx.db, { accountId: auth.account.id, params }),
);
