/** hub_updateUserInvoiceConfig: saves the billing details; the answer is the details as saved. */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { getInvoiceConfigQueryOptions } from './get-invoice-config';
import { useWalletScope } from './wallet-query-key';

export type TInvoiceConfigParams = TParamsIn<'hub_updateUserInvoiceConfig'>;

export function updateInvoiceConfig(params: TInvoiceConfigParams) {
  return callRpc('hub_updateUserInvoiceConfig', params);
}

export function useUpdateInvoiceConfig() {
  const queryClient = useQueryClient();
  const scope = useWalletScope();
  return useMutation({
    mutationFn: updateInvoiceConfig,
    // The account is the one acting when the call was sent, not when it answers.
    onMutate: () => ({ scope }),
    onSuccess: (saved, _params, context) => {
      queryClient.setQueryData(getInvoiceConfigQueryOptions(context.scope).queryKey, saved);
    },
  });
}
