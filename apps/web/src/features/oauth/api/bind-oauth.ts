/** hub_bindOauth: finishes binding a provider to the signed-in user at /bind/callback. */
import { callRpc } from '../../../lib/rpc-client';

export function bindOauth(params: { provider: string; code: string; state: string }) {
  return callRpc('hub_bindOauth', params);
}
