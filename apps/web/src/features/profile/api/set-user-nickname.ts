import { useMutation } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function setUserNickname(nickname: string) {
  return callRpc('hub_setUserNickname', { nickname });
}

export function useSetUserNickname() {
  return useMutation({ mutationFn: setUserNickname });
}
