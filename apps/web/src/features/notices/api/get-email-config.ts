/** hub_getUserEmailConfig: which notice types are also mailed, and which can be. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export const EMAIL_CONFIG_QUERY_KEY = ['notices', 'email-config'] as const;

export function getEmailConfig(signal?: AbortSignal) {
  return callRpc('hub_getUserEmailConfig', {}, { signal });
}

export function getEmailConfigQueryOptions() {
  return queryOptions({
    queryKey: EMAIL_CONFIG_QUERY_KEY,
    queryFn: ({ signal }) => getEmailConfig(signal),
  });
}

export function useEmailConfig() {
  return useQuery(getEmailConfigQueryOptions());
}
