/** hub_getWalletDeposit: credited deposits, paged, by payment channel. A deposit notice flags it stale (SPEC §4). */
import type { TParamsIn } from '@rpc/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export type TDepositsParams = Required<TParamsIn<'hub_getWalletDeposit'>>;

/** Deposit history and pending deposits share this part of the key, so a deposit refreshes both. */
export const DEPOSITS_KEY_PART = 'deposits';

export function getDeposits(params: TDepositsParams, signal?: AbortSignal) {
  return callRpc('hub_getWalletDeposit', params, { signal });
}

export function getDepositsQueryOptions(scope: string, params: TDepositsParams) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, DEPOSITS_KEY_PART, 'history', params],
    queryFn: ({ signal }) => getDeposits(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useDeposits(params: TDepositsParams) {
  return useQuery(getDepositsQueryOptions(useWalletScope(), params));
}
