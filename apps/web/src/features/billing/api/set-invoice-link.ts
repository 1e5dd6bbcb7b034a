/**
 * hub_getInvoicePreviewCode: makes (or replaces) an invoice's public link, or revokes it. The code is shown in the
 * answer only; the invoice list then says a link is on, and when it was made.
 */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { invoicesQueryKey } from './get-invoices';
import { useWalletScope } from './wallet-query-key';

export type TInvoiceLinkParams = TParamsIn<'hub_getInvoicePreviewCode'>;

export function setInvoiceLink(params: TInvoiceLinkParams) {
  return callRpc('hub_getInvoicePreviewCode', params);
}

export function useSetInvoiceLink() {
  const queryClient = useQueryClient();
  const scope = useWalletScope();
  return useMutation({
    mutationFn: setInvoiceLink,
    onMutate: () => ({ scope }),
    onSettled: (_link, _error, _params, context) =>
      queryClient.invalidateQueries({ queryKey: invoicesQueryKey(context?.scope ?? scope) }),
  });
}
