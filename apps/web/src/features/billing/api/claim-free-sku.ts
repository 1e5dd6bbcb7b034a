/** hub_getFreeSkuBuyFreeType: claims the monthly free SKU; a second claim in the month changes nothing. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { invalidateWallet } from './wallet-query-key';

export function claimFreeSku(skuId: string) {
  return callRpc('hub_getFreeSkuBuyFreeType', { skuId });
}

export function useClaimFreeSku() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: claimFreeSku,
    onSuccess: () => invalidateWallet(queryClient),
  });
}
