/** hub_getApiKeyNeedUpgrade: a non-blocking hint that the account should move to a higher tier. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { API_KEYS_QUERY_KEY } from './get-api-keys';

export function getApiKeyNeedUpgrade(signal?: AbortSignal) {
  return callRpc('hub_getApiKeyNeedUpgrade', {}, { signal, hideError: true });
}

export function getApiKeyNeedUpgradeQueryOptions() {
  return queryOptions({
    queryKey: [...API_KEYS_QUERY_KEY, 'need-upgrade'],
    queryFn: ({ signal }) => getApiKeyNeedUpgrade(signal),
  });
}

export function useApiKeyNeedUpgrade() {
  return useQuery(getApiKeyNeedUpgradeQueryOptions());
}
