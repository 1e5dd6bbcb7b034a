/** hub_setUserDiscountCode: attaches a code; the next matching purchase uses it once (quotes change with it). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { invalidateWallet } from './wallet-query-key';

export function setDiscountCode(code: string) {
  return callRpc('hub_setUserDiscountCode', { code });
}

export function useSetDiscountCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDiscountCode,
    onSuccess: () => invalidateWallet(queryClient),
  });
}
