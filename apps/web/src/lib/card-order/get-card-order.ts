/**
 * hub_polling: one card order as it stands now. Asked every ~1.5 s until it settles; silent (SPEC §8), since a
 * missed poll is simply asked again.
 */
import { callRpc } from '../rpc-client';

export function getCardOrder(orderId: string, signal?: AbortSignal) {
  return callRpc('hub_polling', { orderId }, { signal, hideError: true, hideLimit: true });
}
