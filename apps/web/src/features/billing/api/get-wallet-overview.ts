/** hub_getUserWalletOverview: balance and arrears (cents), RUs left, tier, active packages in spending order. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export function getWalletOverview(signal?: AbortSignal) {
  return callRpc('hub_getUserWalletOverview', {}, { signal });
}

export function getWalletOverviewQueryOptions(scope: string) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, 'overview'],
    queryFn: ({ signal }) => getWalletOverview(signal),
  });
}

export function useWalletOverview({ isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getWalletOverviewQueryOptions(useWalletScope()), enabled: isEnabled });
}
