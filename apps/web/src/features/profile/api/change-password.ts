/** hub_changePassword: every password field leaves as its digest (SPEC §5); a two-factor code when it is on. */
import { useMutation } from '@tanstack/react-query';
import { TWO_FACTOR_PROMPT_CODES } from '../../../components/two-factor-prompt';
import { callRpc } from '../../../lib/rpc-client';
import { hashPassword } from '../../../lib/password';

export type TChangePasswordInput = {
  oldPassword: string;
  password: string;
  confirmPassword: string;
  /** given after the server asked for it (10219) */
  twoFactorCode?: string;
};

export function changePassword({
  oldPassword,
  password,
  confirmPassword,
  twoFactorCode,
}: TChangePasswordInput) {
  return callRpc(
    'hub_changePassword',
    {
      oldPassword: hashPassword(oldPassword),
      password: hashPassword(password),
      confirmPassword: hashPassword(confirmPassword),
      ...(twoFactorCode ? { twoFactorCode } : {}),
    },
    { silentCodes: TWO_FACTOR_PROMPT_CODES },
  );
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
