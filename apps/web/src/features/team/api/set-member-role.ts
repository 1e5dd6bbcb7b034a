/**
 * hub_setMemberRole (owner only). Giving 'owner' hands the team over and makes the caller an admin, so then the
 * caller's own role changes too: every team list, the acting team and the session profile reload.
 */
import type { TTeamRole } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { onTeamsChanged, teamQueryKey, useTeamsScope } from './team-query-keys';

export function setMemberRole(params: { teamId: string; userId: string; role: TTeamRole }) {
  return callRpc('hub_setMemberRole', params);
}

export function useSetMemberRole() {
  const queryClient = useQueryClient();
  const scope = useTeamsScope();
  return useMutation({
    mutationFn: setMemberRole,
    onSettled: async (_r, _e, params) => {
      await queryClient.invalidateQueries({ queryKey: teamQueryKey(scope, params.teamId) });
      if (params.role === 'owner') await onTeamsChanged(queryClient);
    },
  });
}
