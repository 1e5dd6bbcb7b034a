import { useMutation } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function removeAvatar() {
  return callRpc('hub_removeAvatar', {});
}

export function useRemoveAvatar() {
  return useMutation({ mutationFn: removeAvatar });
}
