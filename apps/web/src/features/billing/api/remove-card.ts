/** hub_removeCreditCard: detaches a saved card; renewals it paid fall back to the default card. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { invalidateWallet } from './wallet-query-key';

export function removeCard(cardId: string) {
  return callRpc('hub_removeCreditCard', { cardId });
}

export function useRemoveCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCard,
    onSuccess: () => invalidateWallet(queryClient),
  });
}
