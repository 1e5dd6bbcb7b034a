/**
 * hub_deleteApiKey: the endpoint stops working at once; the list refreshes. With two-factor sign-in on, the
 * server asks for a code (10219) and the caller tries again with it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TWO_FACTOR_PROMPT_CODES } from '../../../components/two-factor-prompt';
import { callRpc } from '../../../lib/rpc-client';
import { getApiKeyQueryOptions } from './get-api-key';
import { API_KEYS_QUERY_KEY } from './get-api-keys';

export type TDeleteApiKeyInput = { keyId: string; twoFactorCode?: string };

export function deleteApiKey({ keyId, twoFactorCode }: TDeleteApiKeyInput) {
  return callRpc(
    'hub_deleteApiKey',
    { keyId, ...(twoFactorCode ? { twoFactorCode } : {}) },
    { silentCodes: TWO_FACTOR_PROMPT_CODES },
  );
}

export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    onSuccess: async (_result, { keyId }) => {
      queryClient.removeQueries({ queryKey: getApiKeyQueryOptions(keyId).queryKey });
      await queryClient.invalidateQueries({ queryKey: API_KEYS_QUERY_KEY });
    },
  });
}
