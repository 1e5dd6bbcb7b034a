/** hub_setAutoRenewByCard: a package's renewals charge a card (the given one, else the default) or the wallet. */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { invalidateWallet } from './wallet-query-key';

export function setAutoRenewByCard(params: TParamsIn<'hub_setAutoRenewByCard'>) {
  return callRpc('hub_setAutoRenewByCard', params);
}

export function useSetAutoRenewByCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAutoRenewByCard,
    onSuccess: () => invalidateWallet(queryClient),
  });
}
