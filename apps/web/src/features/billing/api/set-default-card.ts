/** hub_setDefaultCreditCard: the card purchases and card renewals charge unless another is chosen. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { invalidateWallet } from './wallet-query-key';

export function setDefaultCard(cardId: string) {
  return callRpc('hub_setDefaultCreditCard', { cardId });
}

export function useSetDefaultCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDefaultCard,
    // The card list and the subscriptions (which card a renewal charges) both change.
    onSuccess: () => invalidateWallet(queryClient),
  });
}
