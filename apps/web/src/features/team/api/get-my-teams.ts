/** hub_getMyTeam: the teams the user belongs to with the user's role in each (SPEC §9: page 1, 1000 per page). */
import { TEAM_LIST_PAGE } from '@rpc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { myTeamsQueryKey, useTeamsScope } from './team-query-keys';

export function getMyTeams(signal?: AbortSignal) {
  return callRpc('hub_getMyTeam', { ...TEAM_LIST_PAGE }, { signal });
}

export function getMyTeamsQueryOptions(scope: string) {
  return queryOptions({
    queryKey: myTeamsQueryKey(scope),
    queryFn: ({ signal }) => getMyTeams(signal),
  });
}

export function useMyTeams() {
  return useQuery(getMyTeamsQueryOptions(useTeamsScope()));
}
