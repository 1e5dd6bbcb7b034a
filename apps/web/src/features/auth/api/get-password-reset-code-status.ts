/** hub_passwordResetCodeStatus: looks at a reset or set-password code without using it (silent, SPEC §8). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function getPasswordResetCodeStatus(code: string, signal?: AbortSignal) {
  return callRpc('hub_passwordResetCodeStatus', { code }, { signal, hideError: true });
}

export function getPasswordResetCodeStatusQueryOptions(code: string) {
  return queryOptions({
    queryKey: ['auth', 'password-reset-code-status', code],
    queryFn: ({ signal }) => getPasswordResetCodeStatus(code, signal),
    staleTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** Pass null when there is no well-formed code to ask about. */
export function usePasswordResetCodeStatus(code: string | null) {
  return useQuery({
    ...getPasswordResetCodeStatusQueryOptions(code ?? ''),
    enabled: code !== null,
  });
}
