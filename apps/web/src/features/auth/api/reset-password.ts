/** hub_passwordReset: sets a new password with a reset or set-password code; both fields leave as digests. */
import { useMutation } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { hashPassword } from '../../../lib/password';

export type TResetPasswordInput = { code: string; password: string; confirmPassword: string };

export function resetPassword({ code, password, confirmPassword }: TResetPasswordInput) {
  return callRpc('hub_passwordReset', {
    code,
    password: hashPassword(password),
    confirmPassword: hashPassword(confirmPassword),
  });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
