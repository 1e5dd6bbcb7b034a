/** One update path for every key setting: ownership check, update, invalidation, fresh view. */
import { ERROR_CODES, type TApiKey } from '@rpc/contract';
import { apiKeys, type TApiKeyRow } from '@rpc/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { findOwnKey, publishKeyChange, withToday } from './api-key-rows';

export type TUpdateOwnKeyOptions = Pick<
  TRpcContext,
  'db' | 'clock' | 'keyEvents' | 'logger' | 'apiKeyCipher'
> & {
  auth: TAuth;
  keyId: string;
};

type TKeyChanges = Partial<
  Pick<TApiKeyRow, 'name' | 'paused' | 'archiveMode' | 'mev' | 'bundler' | 'allowlists'>
>;

export async function updateOwnKey(
  o: TUpdateOwnKeyOptions,
  changes: (current: TApiKeyRow) => TKeyChanges,
): Promise<{ before: TApiKeyRow; after: TApiKey }> {
  const before = await findOwnKey(o.db, o.auth.account.id, o.keyId);
  const [after] = await o.db
    .update(apiKeys)
    .set({ ...changes(before), updatedAt: new Date(o.clock.now()) })
    .where(
      and(
        eq(apiKeys.id, o.keyId),
        eq(apiKeys.accountId, o.auth.account.id),
        isNull(apiKeys.deletedAt),
      ),
    )
    .returning();
  // Deleted between the read and the write: same answer as a key that was never there.
  if (!after) throw new RpcError(ERROR_CODES.NOT_FOUND);
  await publishKeyChange(o, after.id);
  return { before, after: await withToday(o, after, o.clock.now()) };
}
