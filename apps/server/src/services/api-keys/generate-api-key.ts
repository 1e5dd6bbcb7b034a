import { randomBytes, randomUUID } from 'node:crypto';
import { ERROR_CODES, MAX_API_KEYS_PER_ACCOUNT, type TParams, type TResult } from '@rpc/contract';
import { accounts, apiKeys } from '@rpc/db';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { publishKeyChange, toApiKey } from './api-key-rows';

type TOptions = Pick<TRpcContext, 'db' | 'clock' | 'keyEvents' | 'logger' | 'apiKeyCipher'> & {
  auth: TAuth;
} & TParams<'hub_generateApiKey'>;

/** 32 random bytes as hex: the opaque credential in endpoint URLs; stored sealed, never in plain text. */
export function newApiKey(): string {
  return randomBytes(32).toString('hex');
}

export async function generateApiKey(o: TOptions): Promise<TResult<'hub_generateApiKey'>> {
  const now = new Date(o.clock.now());
  const row = await o.db.transaction(async (tx) => {
    // Lock the account row so two concurrent creations cannot both pass the limit check.
    await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.id, o.auth.account.id))
      .for('update');
    const [live] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, o.auth.account.id), isNull(apiKeys.deletedAt)));
    if ((live?.n ?? 0) >= MAX_API_KEYS_PER_ACCOUNT) throw new RpcError(ERROR_CODES.CONFLICT);
    // The id is chosen here because the ciphertext is bound to it.
    const id = randomUUID();
    const key = newApiKey();
    const [created] = await tx
      .insert(apiKeys)
      .values({
        id,
        accountId: o.auth.account.id,
        name: o.name,
        keyHash: o.apiKeyCipher.hash(key),
        keyCiphertext: o.apiKeyCipher.seal(id, key),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return created!;
  });
  await publishKeyChange(o, row.id);
  return toApiKey(o.apiKeyCipher, row);
}
