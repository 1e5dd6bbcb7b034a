/**
 * Binding an e-mail address to an account that has none (wallet and third-party accounts): whether the address
 * is free, the mailed code, whether a password must be chosen too, and the binding itself.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { hashPassword } from '../../../lib/password';
import { callRpc } from '../../../lib/rpc-client';

/** hub_preBindEmail: silent (SPEC §8) and unthrottled in the popup sense: it runs on every blur. */
export function checkBindableEmail(email: string) {
  return callRpc('hub_preBindEmail', { email }, { hideLimit: true });
}

export function sendBindConfirmMail(email: string) {
  return callRpc('hub_sendBindConfirmMail', { email });
}

export function getNoPasswordQueryOptions() {
  return queryOptions({
    queryKey: ['no-password'],
    queryFn: ({ signal }) => callRpc('hub_noPassword', {}, { signal }),
  });
}

/** Whether the account has no password yet (hub_noPassword), so binding an address must set one. */
export function useNoPassword() {
  return useQuery(getNoPasswordQueryOptions());
}

export type TBindEmailInput = {
  email: string;
  code: string;
  /** plain; sent as digests (SPEC §5), only when the account has no password */
  password?: string;
  confirmPassword?: string;
};

export function bindEmail({ email, code, password, confirmPassword }: TBindEmailInput) {
  return callRpc('hub_bindEmail', {
    email,
    code,
    ...(password ? { password: hashPassword(password) } : {}),
    ...(confirmPassword ? { confirmPassword: hashPassword(confirmPassword) } : {}),
  });
}

export function useBindEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bindEmail,
    onSuccess: () => queryClient.invalidateQueries(getNoPasswordQueryOptions()),
  });
}
