/** hub_setApiKeyName. */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { onApiKeyChanged } from './on-api-key-changed';

export function renameApiKey(params: TParamsIn<'hub_setApiKeyName'>) {
  return callRpc('hub_setApiKeyName', params);
}

export function useRenameApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameApiKey,
    onSuccess: (key) => onApiKeyChanged(queryClient, key),
  });
}
