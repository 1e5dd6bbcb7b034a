/** hub_getUserInvoiceConfig: the billing details invoices of the acting account are issued with. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export function getInvoiceConfig(signal?: AbortSignal) {
  return callRpc('hub_getUserInvoiceConfig', {}, { signal });
}

export function getInvoiceConfigQueryOptions(scope: string) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, 'invoice-config'],
    queryFn: ({ signal }) => getInvoiceConfig(signal),
  });
}

export function useInvoiceConfig() {
  return useQuery(getInvoiceConfigQueryOptions(useWalletScope()));
}
