/** hub_getPureApiKeys: every key of the acting account as id and name, for the request log's key picker. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useActingAccountKey } from '../../../lib/acting-account';
import { callRpc } from '../../../lib/rpc-client';
import { API_KEYS_QUERY_KEY } from './get-api-keys';

export function getPureApiKeys(signal?: AbortSignal) {
  return callRpc('hub_getPureApiKeys', {}, { signal });
}

/** Under the api-keys key, so creating, renaming or deleting a key refreshes the picker too. */
export function getPureApiKeysQueryOptions(account: string) {
  return queryOptions({
    queryKey: [...API_KEYS_QUERY_KEY, 'pure', account],
    queryFn: ({ signal }) => getPureApiKeys(signal),
  });
}

export function usePureApiKeys() {
  return useQuery(getPureApiKeysQueryOptions(useActingAccountKey()));
}
