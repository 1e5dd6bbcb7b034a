/** hub_checkEmailConfirmCodeStatus: looks at a confirmation code without using it (silent, SPEC §8). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function getEmailConfirmCodeStatus(code: string, signal?: AbortSignal) {
  return callRpc('hub_checkEmailConfirmCodeStatus', { code }, { signal, hideError: true });
}

export function getEmailConfirmCodeStatusQueryOptions(code: string) {
  return queryOptions({
    queryKey: ['auth', 'email-confirm-code-status', code],
    queryFn: ({ signal }) => getEmailConfirmCodeStatus(code, signal),
    // The answer changes once the code is used on this very page; never refetch behind its back.
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** Pass null when there is no well-formed code to ask about. */
export function useEmailConfirmCodeStatus(code: string | null) {
  return useQuery({ ...getEmailConfirmCodeStatusQueryOptions(code ?? ''), enabled: code !== null });
}
