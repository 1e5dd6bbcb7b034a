/** hub_cancelInvite: withdraws a pending invitation; the team's invitations reload. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { teamInvitesQueryKey } from './get-team-invites';
import { useTeamsScope } from './team-query-keys';

export function cancelInvite(params: { teamId: string; inviteId: string }) {
  return callRpc('hub_cancelInvite', params);
}

export function useCancelInvite() {
  const queryClient = useQueryClient();
  const scope = useTeamsScope();
  return useMutation({
    mutationFn: cancelInvite,
    onSettled: (_r, _e, params) =>
      queryClient.invalidateQueries({ queryKey: teamInvitesQueryKey(scope, params.teamId) }),
  });
}
