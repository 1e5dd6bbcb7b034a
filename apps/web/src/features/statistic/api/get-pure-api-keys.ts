/** hub_getPureApiKeys: every key of the account as id and name, for the API key filter. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function getPureApiKeys(signal?: AbortSignal) {
  return callRpc('hub_getPureApiKeys', {}, { signal });
}

export function getPureApiKeysQueryOptions() {
  return queryOptions({
    // Under the api-keys key, so creating, renaming or deleting a key refreshes the filter too.
    queryKey: ['api-keys', 'pure'],
    queryFn: ({ signal }) => getPureApiKeys(signal),
  });
}

export function usePureApiKeys() {
  return useQuery(getPureApiKeysQueryOptions());
}
