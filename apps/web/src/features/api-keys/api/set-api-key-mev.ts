/** hub_setApiKeyMev: MEV protection '' (normal), auto or globalcast. */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { onApiKeyChanged } from './on-api-key-changed';

export function setApiKeyMev(params: TParamsIn<'hub_setApiKeyMev'>) {
  return callRpc('hub_setApiKeyMev', params);
}

export function useSetApiKeyMev() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setApiKeyMev,
    onSuccess: (key) => onApiKeyChanged(queryClient, key),
  });
}
