/** hub_getApiKey: one key, for the detail drawer (the list page it came from may have moved on). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { API_KEYS_QUERY_KEY } from './get-api-keys';

export function getApiKey(keyId: string, signal?: AbortSignal) {
  return callRpc('hub_getApiKey', { keyId }, { signal });
}

export function getApiKeyQueryOptions(keyId: string) {
  return queryOptions({
    queryKey: [...API_KEYS_QUERY_KEY, 'detail', keyId],
    queryFn: ({ signal }) => getApiKey(keyId, signal),
  });
}

export function useApiKey(keyId: string | null) {
  return useQuery({ ...getApiKeyQueryOptions(keyId ?? ''), enabled: keyId !== null });
}
