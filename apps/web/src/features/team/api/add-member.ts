/** hub_addMember: invites by e-mail address or user code, with a role; the team's invitations reload. */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { teamInvitesQueryKey } from './get-team-invites';
import { useTeamsScope } from './team-query-keys';

export function addMember(params: TParamsIn<'hub_addMember'>) {
  return callRpc('hub_addMember', params);
}

export function useAddMember() {
  const queryClient = useQueryClient();
  const scope = useTeamsScope();
  return useMutation({
    mutationFn: addMember,
    onSuccess: (_invite, params) =>
      queryClient.invalidateQueries({ queryKey: teamInvitesQueryKey(scope, params.teamId) }),
  });
}
