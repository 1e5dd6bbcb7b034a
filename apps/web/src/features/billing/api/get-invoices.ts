/** hub_getUserInvoice: the acting account's invoices, paged (SPEC §9), by payment channel. */
import type { TParamsIn } from '@rpc/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export type TInvoicesParams = Required<TParamsIn<'hub_getUserInvoice'>>;

export function getInvoices(params: TInvoicesParams, signal?: AbortSignal) {
  return callRpc('hub_getUserInvoice', params, { signal });
}

/** Every page of the list, under the wallet prefix: a purchase issues an invoice and refreshes this too. */
export function invoicesQueryKey(scope: string) {
  return [...WALLET_QUERY_KEY, scope, 'invoices'] as const;
}

export function getInvoicesQueryOptions(scope: string, params: TInvoicesParams) {
  return queryOptions({
    queryKey: [...invoicesQueryKey(scope), params],
    queryFn: ({ signal }) => getInvoices(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useInvoices(params: TInvoicesParams) {
  return useQuery(getInvoicesQueryOptions(useWalletScope(), params));
}
