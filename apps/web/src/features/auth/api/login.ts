/** hub_login: trades an e-mail and password for a session token (the password leaves as its digest, SPEC §5). */
import { useMutation } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { hashPassword } from '../../../lib/password';

export type TLoginInput = { email: string; password: string };

export function login({ email, password }: TLoginInput) {
  return callRpc('hub_login', { email, password: hashPassword(password) });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
