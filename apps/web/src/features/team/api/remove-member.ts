/** hub_removeMember: removes a member of a lower role; the team's members and the team lists reload. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { teamQueryKey, myTeamsQueryKey, useTeamsScope } from './team-query-keys';

export function removeMember(params: { teamId: string; userId: string }) {
  return callRpc('hub_removeMember', params);
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  const scope = useTeamsScope();
  return useMutation({
    mutationFn: removeMember,
    // The member count of the team's row changes too.
    onSettled: (_r, _e, params) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teamQueryKey(scope, params.teamId) }),
        queryClient.invalidateQueries({ queryKey: myTeamsQueryKey(scope) }),
      ]),
  });
}
