/** hub_deleteApiKey: the endpoint stops working at once; the list refreshes. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { getApiKeyQueryOptions } from './get-api-key';
import { API_KEYS_QUERY_KEY } from './get-api-keys';

export function deleteApiKey(keyId: string) {
  return callRpc('hub_deleteApiKey', { keyId });
}

export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    onSuccess: async (_result, keyId) => {
      queryClient.removeQueries({ queryKey: getApiKeyQueryOptions(keyId).queryKey });
      await queryClient.invalidateQueries({ queryKey: API_KEYS_QUERY_KEY });
    },
  });
}
