/** hub_getWalletDepositPending: deposits seen on chain and waiting for confirmations, polled while any wait. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { DEPOSITS_KEY_PART } from './get-deposits';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

/** How often the pending list is asked again while it is not empty. */
export const PENDING_POLL_MS = 10_000;

export function getPendingDeposits(signal?: AbortSignal) {
  return callRpc('hub_getWalletDepositPending', {}, { signal });
}

export function getPendingDepositsQueryOptions(scope: string) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, DEPOSITS_KEY_PART, 'pending'],
    queryFn: ({ signal }) => getPendingDeposits(signal),
    refetchInterval: (query) =>
      (query.state.data?.list.length ?? 0) > 0 ? PENDING_POLL_MS : false,
  });
}

export function usePendingDeposits() {
  return useQuery(getPendingDepositsQueryOptions(useWalletScope()));
}
