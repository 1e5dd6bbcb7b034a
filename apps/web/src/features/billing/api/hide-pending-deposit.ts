/** hub_delWalletDepositPending: hides a pending deposit from the list (it is still credited if it confirms). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { DEPOSITS_KEY_PART } from './get-deposits';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export function hidePendingDeposit(id: string) {
  return callRpc('hub_delWalletDepositPending', { id });
}

export function useHidePendingDeposit() {
  const queryClient = useQueryClient();
  const scope = useWalletScope();
  return useMutation({
    mutationFn: hidePendingDeposit,
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: [...WALLET_QUERY_KEY, scope, DEPOSITS_KEY_PART, 'pending'],
      }),
  });
}
