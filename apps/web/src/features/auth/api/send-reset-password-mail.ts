/** hub_sendResetPasswordMail: a reset link (purpose reset) or a set-password link (purpose set). */
import { useMutation } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export type TSendResetPasswordMailInput = { email: string; purpose: 'reset' | 'set' };

export function sendResetPasswordMail({ email, purpose }: TSendResetPasswordMailInput) {
  return callRpc('hub_sendResetPasswordMail', { email, purpose });
}

export function useSendResetPasswordMail() {
  return useMutation({ mutationFn: sendResetPasswordMail });
}
