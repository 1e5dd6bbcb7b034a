/** hub_deleteTeam: disbands a team (owner only); every team list and the session profile reload. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { onTeamsChanged } from './team-query-keys';

export function deleteTeam(teamId: string) {
  return callRpc('hub_deleteTeam', { teamId });
}

export function useDeleteTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTeam,
    onSuccess: (_r, teamId) => onTeamsChanged(queryClient, teamId),
  });
}
