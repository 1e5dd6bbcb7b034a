import type { TParams, TResult } from '@rpc/contract';
import type { TAuth, TRpcContext } from '../../rpc/context';
import { findOwnKey, withToday } from './api-key-rows';

type TOptions = Pick<TRpcContext, 'db' | 'clock' | 'apiKeyCipher'> & {
  auth: TAuth;
} & TParams<'hub_getApiKey'>;

export async function getApiKey(o: TOptions): Promise<TResult<'hub_getApiKey'>> {
  const row = await findOwnKey(o.db, o.auth.account.id, o.keyId);
  return withToday(o, row, o.clock.now());
}
