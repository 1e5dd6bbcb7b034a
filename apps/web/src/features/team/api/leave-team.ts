/** hub_leaveTeam: the user leaves a team (not its owner); every team list and the session profile reload. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { onTeamsChanged } from './team-query-keys';

export function leaveTeam(teamId: string) {
  return callRpc('hub_leaveTeam', { teamId });
}

export function useLeaveTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveTeam,
    onSuccess: (_r, teamId) => onTeamsChanged(queryClient, teamId),
  });
}
