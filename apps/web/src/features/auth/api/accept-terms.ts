/** hub_setUserAcceptTerm: records the acceptance of the terms, which also initialises the account. */
import { useMutation } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function acceptTerms() {
  return callRpc('hub_setUserAcceptTerm', {});
}

export function useAcceptTerms() {
  return useMutation({ mutationFn: acceptTerms });
}
