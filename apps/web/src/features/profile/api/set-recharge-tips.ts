import { useMutation } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function setRechargeTips(isOn: boolean) {
  return callRpc('hub_setRechargeTips', { rechargeTips: isOn ? 1 : 0 });
}

export function useSetRechargeTips() {
  return useMutation({ mutationFn: setRechargeTips });
}
