/** hub_getInvoiceView: one invoice of the acting account in full (no error popup: the view says it failed). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export function getInvoiceView(invoiceId: string, signal?: AbortSignal) {
  return callRpc('hub_getInvoiceView', { invoiceId }, { signal });
}

export function getInvoiceViewQueryOptions(scope: string, invoiceId: string) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, 'invoice', invoiceId],
    queryFn: ({ signal }) => getInvoiceView(invoiceId, signal),
    // An issued invoice does not change.
    staleTime: Infinity,
  });
}

export function useInvoiceView(invoiceId: string | null) {
  const scope = useWalletScope();
  return useQuery({ ...getInvoiceViewQueryOptions(scope, invoiceId ?? ''), enabled: !!invoiceId });
}
