/** hub_setUserEmailConfig. */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { EMAIL_CONFIG_QUERY_KEY } from './get-email-config';

export function setEmailConfig(params: TParamsIn<'hub_setUserEmailConfig'>) {
  return callRpc('hub_setUserEmailConfig', params);
}

export function useSetEmailConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setEmailConfig,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: EMAIL_CONFIG_QUERY_KEY }),
  });
}
