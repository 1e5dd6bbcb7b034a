import { delWalletDepositPending } from '../../../services/deposits/del-wallet-deposit-pending';
import { userHandler } from '../../define-handler';
import { asRpc } from './deposit-rpc-error';

export const delWalletDepositPendingHandler = userHandler(
  'hub_delWalletDepositPending',
  ({ ctx, auth, params }) => asRpc(delWalletDepositPending({ deps: ctx, auth, params })),
);
