/**
 * hub_createStripeOrder: tops the wallet up by card ($5 to $10,000 in cents). Answers the order, which the order
 * flow follows until it settles; the amount is credited once however often the same key is sent.
 */
import type { TParamsIn } from '@rpc/contract';
import { useMutation } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export type TCardTopUpParams = TParamsIn<'hub_createStripeOrder'>;

export function createCardTopUp(params: TCardTopUpParams) {
  return callRpc('hub_createStripeOrder', params);
}

export function useCreateCardTopUp() {
  return useMutation({ mutationFn: createCardTopUp });
}
