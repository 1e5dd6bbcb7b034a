import type { TResult } from '@rpc/contract';
import { apiKeys } from '@rpc/db';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';

type TOptions = Pick<TRpcContext, 'db'> & { auth: TAuth };

export async function getPureApiKeys(o: TOptions): Promise<TResult<'hub_getPureApiKeys'>> {
  const list = await o.db
    .select({ keyId: apiKeys.id, name: apiKeys.name })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, o.auth.account.id), isNull(apiKeys.deletedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return { list };
}
