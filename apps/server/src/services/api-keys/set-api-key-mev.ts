import type { TParams, TResult } from '@rpc/contract';
import { updateOwnKey, type TUpdateOwnKeyOptions } from './update-own-key';

export async function setApiKeyMev(
  o: TUpdateOwnKeyOptions & TParams<'hub_setApiKeyMev'>,
): Promise<TResult<'hub_setApiKeyMev'>> {
  return (await updateOwnKey(o, () => ({ mev: o.mev }))).after;
}
