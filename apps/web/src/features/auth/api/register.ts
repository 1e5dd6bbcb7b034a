/** hub_register / hub_registerTeam: creates the account; both password fields leave as digests (SPEC §5). */
import { useMutation } from '@tanstack/react-query';
import type { TLanguage } from '@rpc/contract';
import { callRpc } from '../../../lib/rpc-client';
import { hashPassword } from '../../../lib/password';

export type TRegisterInput = {
  email: string;
  password: string;
  confirmPassword: string;
  language?: TLanguage;
  /** set: register a team-type user with this first team (hub_registerTeam) */
  teamName?: string;
};

export function register({ email, password, confirmPassword, language, teamName }: TRegisterInput) {
  const common = {
    email,
    password: hashPassword(password),
    confirmPassword: hashPassword(confirmPassword),
    language,
  };
  // A team account (SPEC §3 userType team): the same sign-up plus its first team.
  return teamName === undefined
    ? callRpc('hub_register', common)
    : callRpc('hub_registerTeam', { ...common, teamName });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
