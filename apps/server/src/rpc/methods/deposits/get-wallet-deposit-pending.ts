import { getWalletDepositPending } from '../../../services/deposits/get-wallet-deposit-pending';
import { userHandler } from '../../define-handler';
import { asRpc } from './deposit-rpc-error';

export const getWalletDepositPendingHandler = userHandler(
  'hub_getWalletDepositPending',
  ({ ctx, auth }) => asRpc(getWalletDepositPending({ deps: ctx, auth })),
);
