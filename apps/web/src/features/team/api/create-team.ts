/** hub_createTeam: a new team owned by the user; every team list reloads. */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { onTeamsChanged } from './team-query-keys';

export function createTeam(params: TParamsIn<'hub_createTeam'>) {
  return callRpc('hub_createTeam', params);
}

export function useCreateTeam() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createTeam, onSuccess: () => onTeamsChanged(queryClient) });
}
