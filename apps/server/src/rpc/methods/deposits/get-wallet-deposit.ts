import { getWalletDeposit } from '../../../services/deposits/get-wallet-deposit';
import { userHandler } from '../../define-handler';
import { asRpc } from './deposit-rpc-error';

export const getWalletDepositHandler = userHandler(
  'hub_getWalletDeposit',
  ({ ctx, auth, params }) => asRpc(getWalletDeposit({ deps: ctx, auth, params })),
);
