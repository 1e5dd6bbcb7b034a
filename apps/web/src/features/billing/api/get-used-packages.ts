/** hub_getViewUsedInfo: the account's packages with RUs used and left and their expiry, paged. */
import type { TParamsIn } from '@rpc/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export type TUsedPackagesParams = Required<TParamsIn<'hub_getViewUsedInfo'>>;

export function getUsedPackages(params: TUsedPackagesParams, signal?: AbortSignal) {
  return callRpc('hub_getViewUsedInfo', params, { signal });
}

export function getUsedPackagesQueryOptions(scope: string, params: TUsedPackagesParams) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, 'used', params],
    queryFn: ({ signal }) => getUsedPackages(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useUsedPackages(params: TUsedPackagesParams) {
  return useQuery(getUsedPackagesQueryOptions(useWalletScope(), params));
}
