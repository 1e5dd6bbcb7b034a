import { ERROR_CODES, type TParams, type TResult } from '@rpc/contract';
import { apiKeys } from '@rpc/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { raiseNotice } from '../notices/raise-notice';
import { requireTwoFactorCode } from '../sign-in/two-factor';
import { publishKeyChange } from './api-key-rows';

type TOptions = Pick<
  TRpcContext,
  'db' | 'clock' | 'keyEvents' | 'logger' | 'noticeBus' | 'apiKeyCipher' | 'throttle' | 'ip'
> & {
  auth: TAuth;
} & TParams<'hub_deleteApiKey'>;

/**
 * Soft delete (usage history keeps its key), then the gateways drop the key and the user gets apikey_delete. A
 * caller with two-factor sign-in on gives a code first, whichever account they act for (their own, or a team).
 */
export async function deleteApiKey(o: TOptions): Promise<TResult<'hub_deleteApiKey'>> {
  await requireTwoFactorCode(
    o,
    { userId: o.auth.userId, ip: o.ip },
    { code: o.twoFactorCode, method: 'hub_deleteApiKey' },
  );
  const now = o.clock.now();
  const { deleted, notices } = await o.db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ deletedAt: new Date(now), updatedAt: new Date(now) })
      .where(
        and(
          eq(apiKeys.id, o.keyId),
          eq(apiKeys.accountId, o.auth.account.id),
          isNull(apiKeys.deletedAt),
        ),
      )
      .returning({ id: apiKeys.id, name: apiKeys.name });
    if (!row) throw new RpcError(ERROR_CODES.NOT_FOUND);
    const raised = await raiseNotice({
      db: tx,
      at: now,
      type: 'apikey_delete',
      userId: o.auth.userId,
      accountId: o.auth.account.id,
      title: 'API key deleted',
      content: `API key "${row.name}" was deleted; requests with it are refused.`,
      expand: { apikeyName: row.name },
    });
    return { deleted: row, notices: raised };
  });
  await publishKeyChange(o, deleted.id);
  o.noticeBus.push(notices);
  return { success: true };
}
