import { getDepositAddress } from '../../../services/deposits/get-deposit-address';
import { userHandler } from '../../define-handler';
import { asRpc } from './deposit-rpc-error';

export const getDepositAddressHandler = userHandler(
  'hub_getDepositAddress',
  ({ ctx, auth, params }) => asRpc(getDepositAddress({ deps: ctx, auth, params })),
);
