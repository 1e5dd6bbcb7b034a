/** hub_getTeamMembers: a team's members, owner first. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { teamQueryKey, useTeamsScope } from './team-query-keys';

export function getTeamMembers(teamId: string, signal?: AbortSignal) {
  return callRpc('hub_getTeamMembers', { teamId }, { signal });
}

export function teamMembersQueryKey(scope: string, teamId: string) {
  return [...teamQueryKey(scope, teamId), 'members'] as const;
}

export function getTeamMembersQueryOptions(scope: string, teamId: string) {
  return queryOptions({
    queryKey: teamMembersQueryKey(scope, teamId),
    queryFn: ({ signal }) => getTeamMembers(teamId, signal),
  });
}

export function useTeamMembers(teamId: string | null) {
  const scope = useTeamsScope();
  return useQuery({ ...getTeamMembersQueryOptions(scope, teamId ?? ''), enabled: !!teamId });
}
