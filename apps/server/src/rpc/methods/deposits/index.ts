/** Handlers of the deposit domain (packages/contract/src/deposits/methods.ts). */
import type { DEPOSIT_METHODS, TNamesOf } from '@rpc/contract';
import type { THandler } from '../../define-handler';
import { delWalletDepositPendingHandler } from './del-wallet-deposit-pending';
import { getDepositAddressHandler } from './get-deposit-address';
import { getDepositAddressListHandler } from './get-deposit-address-list';
import { getWalletCoinListHandler } from './get-wallet-coin-list';
import { getWalletDepositHandler } from './get-wallet-deposit';
import { getWalletDepositPendingHandler } from './get-wallet-deposit-pending';

export const DEPOSIT_HANDLERS: {
  [N in TNamesOf<typeof DEPOSIT_METHODS>]: THandler<N>;
} = {
  hub_getWalletCoinList: getWalletCoinListHandler,
  hub_getDepositAddress: getDepositAddressHandler,
  hub_getDepositAddressList: getDepositAddressListHandler,
  hub_getWalletDeposit: getWalletDepositHandler,
  hub_getWalletDepositPending: getWalletDepositPendingHandler,
  hub_delWalletDepositPending: delWalletDepositPendingHandler,
};
