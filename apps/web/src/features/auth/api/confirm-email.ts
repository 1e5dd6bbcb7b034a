/** hub_emailConfirm: uses the single-use code from the confirmation mail (silent, SPEC §8). */
import { useMutation } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

// No abort signal on purpose: the code is single-use, and a request cut off after the server used it
// would leave the page claiming a failure.
export function confirmEmail(code: string) {
  return callRpc('hub_emailConfirm', { code }, { hideError: true });
}

export function useConfirmEmail() {
  return useMutation({ mutationFn: confirmEmail });
}
