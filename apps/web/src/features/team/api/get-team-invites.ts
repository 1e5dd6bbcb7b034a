/** hub_getTeamInvites: a team's pending invitations (members permission). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { teamQueryKey, useTeamsScope } from './team-query-keys';

export function getTeamInvites(teamId: string, signal?: AbortSignal) {
  return callRpc('hub_getTeamInvites', { teamId }, { signal });
}

export function teamInvitesQueryKey(scope: string, teamId: string) {
  return [...teamQueryKey(scope, teamId), 'invites'] as const;
}

export function getTeamInvitesQueryOptions(scope: string, teamId: string) {
  return queryOptions({
    queryKey: teamInvitesQueryKey(scope, teamId),
    queryFn: ({ signal }) => getTeamInvites(teamId, signal),
  });
}

export function useTeamInvites(teamId: string, isEnabled: boolean) {
  const scope = useTeamsScope();
  return useQuery({ ...getTeamInvitesQueryOptions(scope, teamId), enabled: isEnabled });
}
