/** hub_updateApiKey: pause or resume a key, replace its allowlists. */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { onApiKeyChanged } from './on-api-key-changed';

export function updateApiKey(params: TParamsIn<'hub_updateApiKey'>) {
  return callRpc('hub_updateApiKey', params);
}

export function useUpdateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateApiKey,
    onSuccess: (key) => onApiKeyChanged(queryClient, key),
  });
}
