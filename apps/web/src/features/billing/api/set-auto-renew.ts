/** hub_setUserAutoRenew: one package renews from the wallet when it runs out or expires, or stops doing so. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { invalidateWallet } from './wallet-query-key';

export function setAutoRenew(params: { packageId: string; autoRenew: boolean }) {
  return callRpc('hub_setUserAutoRenew', params);
}

export function useSetAutoRenew() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAutoRenew,
    onSuccess: () => invalidateWallet(queryClient),
  });
}
