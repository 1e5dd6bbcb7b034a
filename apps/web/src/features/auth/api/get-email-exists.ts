/** hub_emailExists, asked when the register form's e-mail field loses focus; a 10429 stays quiet. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function getEmailExists(email: string, signal?: AbortSignal) {
  return callRpc('hub_emailExists', { email }, { signal, hideError: true, hideLimit: true });
}

export function getEmailExistsQueryOptions(email: string) {
  return queryOptions({
    queryKey: ['auth', 'email-exists', email],
    queryFn: ({ signal }) => getEmailExists(email, signal),
    staleTime: 60_000,
    retry: false,
  });
}

/** Pass null until there is an address worth asking about. */
export function useEmailExists(email: string | null) {
  return useQuery({ ...getEmailExistsQueryOptions(email ?? ''), enabled: email !== null });
}
