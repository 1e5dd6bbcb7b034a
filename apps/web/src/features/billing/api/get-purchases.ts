/** hub_getViewUserPurchaseInfo: purchase history, paged, by payment channel and package type (SPEC §3). */
import type { TParamsIn } from '@rpc/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export type TPurchasesParams = Required<TParamsIn<'hub_getViewUserPurchaseInfo'>>;

export function getPurchases(params: TPurchasesParams, signal?: AbortSignal) {
  return callRpc('hub_getViewUserPurchaseInfo', params, { signal });
}

export function getPurchasesQueryOptions(scope: string, params: TPurchasesParams) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, 'purchases', params],
    queryFn: ({ signal }) => getPurchases(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function usePurchases(params: TPurchasesParams) {
  return useQuery(getPurchasesQueryOptions(useWalletScope(), params));
}
