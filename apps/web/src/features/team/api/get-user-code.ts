/** hub_getUserCode: the code others invite this user with instead of an e-mail address. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { TEAMS_QUERY_KEY, useTeamsScope } from './team-query-keys';

export function getUserCodeQueryOptions(scope: string) {
  return queryOptions({
    queryKey: [...TEAMS_QUERY_KEY, scope, 'user-code'],
    queryFn: ({ signal }) => callRpc('hub_getUserCode', {}, { signal }),
    staleTime: Infinity,
  });
}

export function useUserCode() {
  return useQuery(getUserCodeQueryOptions(useTeamsScope()));
}
