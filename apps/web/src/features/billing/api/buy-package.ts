/**
 * hub_buyPackage from the wallet balance. The caller keeps one idempotency key per purchase attempt and sends it
 * again on a retry, so a purchase whose answer was lost is paid once; expectedPayCents is the confirmed price.
 */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { invalidateWallet } from './wallet-query-key';

export type TBuyPackageParams = TParamsIn<'hub_buyPackage'> & { idempotencyKey: string };

export function buyPackage(params: TBuyPackageParams) {
  return callRpc('hub_buyPackage', params);
}

export function useBuyPackage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: buyPackage,
    // Whatever the answer, the wallet may have changed (a lost answer may still have paid).
    onSettled: () => invalidateWallet(queryClient),
  });
}
