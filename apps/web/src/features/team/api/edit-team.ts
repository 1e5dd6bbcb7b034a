/** hub_editTeamName and hub_editTeamNote, saved together from one form; the team lists reload. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { onTeamsChanged } from './team-query-keys';

export type TEditTeamInput = {
  teamId: string;
  /** only the fields that changed are sent */
  teamName?: string;
  note?: string;
};

export async function editTeam({ teamId, teamName, note }: TEditTeamInput): Promise<void> {
  if (teamName !== undefined) await callRpc('hub_editTeamName', { teamId, teamName });
  if (note !== undefined) await callRpc('hub_editTeamNote', { teamId, note });
}

export function useEditTeam() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: editTeam, onSettled: () => onTeamsChanged(queryClient) });
}
