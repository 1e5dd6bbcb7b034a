/**
 * hub_approveInvite and hub_rejectInvite: the user's answer to an invitation. Both end it (the list and the
 * profile's hasInvite change); accepting adds a team, so every team list reloads.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { onTeamsChanged } from './team-query-keys';

export function approveInvite(inviteId: string) {
  return callRpc('hub_approveInvite', { inviteId });
}

export function rejectInvite(inviteId: string) {
  return callRpc('hub_rejectInvite', { inviteId });
}

export function useApproveInvite() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: approveInvite, onSettled: () => onTeamsChanged(queryClient) });
}

export function useRejectInvite() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: rejectInvite, onSettled: () => onTeamsChanged(queryClient) });
}
