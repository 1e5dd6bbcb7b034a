/** hub_setApiKeyAdvancedFeatures: archive_mode on or off. */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { onApiKeyChanged } from './on-api-key-changed';

export function setApiKeyAdvancedFeatures(params: TParamsIn<'hub_setApiKeyAdvancedFeatures'>) {
  return callRpc('hub_setApiKeyAdvancedFeatures', params);
}

export function useSetApiKeyAdvancedFeatures() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setApiKeyAdvancedFeatures,
    onSuccess: (key) => onApiKeyChanged(queryClient, key),
  });
}
