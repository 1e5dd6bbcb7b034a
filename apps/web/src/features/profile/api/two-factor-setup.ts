/**
 * Turning two-factor sign-in on, off, and renewing the backup codes (hub_startTwoFactorSetup,
 * hub_enableTwoFactor, hub_disableTwoFactor, hub_regenerateBackupCodes); each refreshes the status.
 */
import { ERROR_CODES } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TWO_FACTOR_PROMPT_CODES } from '../../../components/two-factor-prompt';
import { hashPassword } from '../../../lib/password';
import { callRpc } from '../../../lib/rpc-client';
import { getTwoFactorStatusQueryOptions } from './get-two-factor-status';

export function startTwoFactorSetup() {
  return callRpc('hub_startTwoFactorSetup', {});
}

/** A wrong code or password is said on its field, not in a popup. */
export const ENABLE_SILENT_CODES: readonly number[] = [
  ...TWO_FACTOR_PROMPT_CODES,
  ERROR_CODES.PASSWORD_REQUIRED,
  ERROR_CODES.WRONG_PASSWORD,
];

/** `password` plain (sent as its digest, SPEC §5); left out for a user who has none. */
export function enableTwoFactor({ code, password }: { code: string; password?: string }) {
  return callRpc(
    'hub_enableTwoFactor',
    { code, ...(password ? { password: hashPassword(password) } : {}) },
    { silentCodes: ENABLE_SILENT_CODES },
  );
}

/** Asked through the two-factor prompt, which says a wrong code itself. */
export function disableTwoFactor(code: string) {
  return callRpc('hub_disableTwoFactor', { code }, { silentCodes: TWO_FACTOR_PROMPT_CODES });
}

export function regenerateBackupCodes(code: string) {
  return callRpc('hub_regenerateBackupCodes', { code }, { silentCodes: TWO_FACTOR_PROMPT_CODES });
}

function useStatusRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(getTwoFactorStatusQueryOptions());
}

export function useStartTwoFactorSetup() {
  return useMutation({ mutationFn: startTwoFactorSetup });
}

export function useEnableTwoFactor() {
  const refresh = useStatusRefresh();
  return useMutation({ mutationFn: enableTwoFactor, onSuccess: refresh });
}

export function useDisableTwoFactor() {
  const refresh = useStatusRefresh();
  return useMutation({ mutationFn: disableTwoFactor, onSuccess: refresh });
}

export function useRegenerateBackupCodes() {
  const refresh = useStatusRefresh();
  return useMutation({ mutationFn: regenerateBackupCodes, onSuccess: refresh });
}
