import type { TParams, TResult } from '@rpc/contract';
import { updateOwnKey, type TUpdateOwnKeyOptions } from './update-own-key';

export async function setApiKeyBundler(
  o: TUpdateOwnKeyOptions & TParams<'hub_setApiKeyBundler'>,
): Promise<TResult<'hub_setApiKeyBundler'>> {
  return (await updateOwnKey(o, () => ({ bundler: o.bundler }))).after;
}
