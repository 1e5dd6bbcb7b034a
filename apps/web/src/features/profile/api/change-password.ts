/** hub_changePassword: every password field leaves as its digest (SPEC §5). */
import { useMutation } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { hashPassword } from '../../../lib/password';

export type TChangePasswordInput = {
  oldPassword: string;
  password: string;
  confirmPassword: string;
};

export function changePassword({ oldPassword, password, confirmPassword }: TChangePasswordInput) {
  return callRpc('hub_changePassword', {
    oldPassword: hashPassword(oldPassword),
    password: hashPassword(password),
    confirmPassword: hashPassword(confirmPassword),
  });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
