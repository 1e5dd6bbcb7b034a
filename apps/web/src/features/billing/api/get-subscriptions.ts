/** hub_getSubscriptions: packages that renew automatically, by wallet or card, with the next renewal and card. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export function getSubscriptions(signal?: AbortSignal) {
  return callRpc('hub_getSubscriptions', {}, { signal });
}

export function getSubscriptionsQueryOptions(scope: string) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, 'subscriptions'],
    queryFn: ({ signal }) => getSubscriptions(signal),
  });
}

export function useSubscriptions() {
  return useQuery(getSubscriptionsQueryOptions(useWalletScope()));
}
