/** hub_setApiKeyBundler: the ERC-4337 bundler provider. */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { onApiKeyChanged } from './on-api-key-changed';

export function setApiKeyBundler(params: TParamsIn<'hub_setApiKeyBundler'>) {
  return callRpc('hub_setApiKeyBundler', params);
}

export function useSetApiKeyBundler() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setApiKeyBundler,
    onSuccess: (key) => onApiKeyChanged(queryClient, key),
  });
}
