import { getDepositAddressList } from '../../../services/deposits/get-deposit-address-list';
import { userHandler } from '../../define-handler';
import { asRpc } from './deposit-rpc-error';

export const getDepositAddressListHandler = userHandler(
  'hub_getDepositAddressList',
  ({ ctx, auth }) => asRpc(getDepositAddressList({ deps: ctx, auth })),
);
