/** hub_getSpendLimits: the acting account's monthly caps, alert thresholds, alert or stop, and this month so far. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export function getSpendLimits(signal?: AbortSignal) {
  return callRpc('hub_getSpendLimits', {}, { signal });
}

/** Under the wallet prefix, so a purchase (which moves this month's spend) refreshes it too. */
export function getSpendLimitsQueryOptions(scope: string) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, 'spend-limits'],
    queryFn: ({ signal }) => getSpendLimits(signal),
  });
}

export function useSpendLimits() {
  return useQuery(getSpendLimitsQueryOptions(useWalletScope()));
}
