import type { TParams, TResult } from '@rpc/contract';
import { updateOwnKey, type TUpdateOwnKeyOptions } from './update-own-key';

export async function setApiKeyName(
  o: TUpdateOwnKeyOptions & TParams<'hub_setApiKeyName'>,
): Promise<TResult<'hub_setApiKeyName'>> {
  return (await updateOwnKey(o, () => ({ name: o.name }))).after;
}
