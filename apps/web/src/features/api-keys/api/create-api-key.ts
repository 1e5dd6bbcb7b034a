/** hub_generateApiKey: a new key for the acting account; the list refreshes so it shows at once. */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { onApiKeyChanged } from './on-api-key-changed';

export function createApiKey(params: TParamsIn<'hub_generateApiKey'>) {
  return callRpc('hub_generateApiKey', params);
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: (key) => onApiKeyChanged(queryClient, key),
  });
}
