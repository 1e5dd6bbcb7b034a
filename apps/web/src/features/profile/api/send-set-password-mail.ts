/** hub_sendResetPasswordMail with purpose set: mails a set-password link to a user who has no password. */
import { useMutation } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function sendSetPasswordMail(email: string) {
  return callRpc('hub_sendResetPasswordMail', { email, purpose: 'set' });
}

export function useSendSetPasswordMail() {
  return useMutation({ mutationFn: sendSetPasswordMail });
}
