import { useMutation } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function sendRegisterConfirmMail(email: string) {
  return callRpc('hub_sendRegisterConfirmMail', { email });
}

export function useSendRegisterConfirmMail() {
  return useMutation({ mutationFn: sendRegisterConfirmMail });
}
