/** hub_register: creates the account; both password fields leave as digests (SPEC §5). */
import { useMutation } from '@tanstack/react-query';
import type { TLanguage } from '@rpc/contract';
import { callRpc } from '../../../lib/rpc-client';
import { hashPassword } from '../../../lib/password';

export type TRegisterInput = {
  email: string;
  password: string;
  confirmPassword: string;
  language?: TLanguage;
};

export function register({ email, password, confirmPassword, language }: TRegisterInput) {
  return callRpc('hub_register', {
    email,
    password: hashPassword(password),
    confirmPassword: hashPassword(confirmPassword),
    language,
  });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
