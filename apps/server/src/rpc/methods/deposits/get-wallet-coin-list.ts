import { getWalletCoinList } from '../../../services/deposits/get-wallet-coin-list';
import { userHandler } from '../../define-handler';
import { asRpc } from './deposit-rpc-error';

export const getWalletCoinListHandler = userHandler('hub_getWalletCoinList', ({ ctx }) =>
  asRpc(getWalletCoinList({ deps: ctx })),
);
