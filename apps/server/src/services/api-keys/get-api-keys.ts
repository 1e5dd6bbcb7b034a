import type { TParams, TResult } from '@rpc/contract';
import { apiKeys } from '@rpc/db';
import { and, count, desc, eq, ilike, isNull, or, type SQL } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';
import { toApiKey, todayUsage } from './api-key-rows';

type TOptions = Pick<TRpcContext, 'db' | 'clock'> & { auth: TAuth } & TParams<'hub_getApiKeys'>;

/** `%`, `_` and `\` match themselves: a search for "50%" finds "50%", not everything. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function getApiKeys(o: TOptions): Promise<TResult<'hub_getApiKeys'>> {
  const conditions: SQL[] = [eq(apiKeys.accountId, o.auth.account.id), isNull(apiKeys.deletedAt)];
  if (o.search) {
    // PostgreSQL's default LIKE escape character is the backslash, on both drivers.
    const pattern = `%${escapeLike(o.search)}%`;
    conditions.push(or(ilike(apiKeys.name, pattern), ilike(apiKeys.key, pattern))!);
  }
  const where = and(...conditions);
  const [total] = await o.db.select({ n: count() }).from(apiKeys).where(where);
  const rows = await o.db
    .select()
    .from(apiKeys)
    .where(where)
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(o.perPage)
    .offset((o.page - 1) * o.perPage);
  const usage = await todayUsage(
    o.db,
    rows.map((r) => r.id),
    o.clock.now(),
  );
  return {
    list: rows.map((r) => toApiKey(r, usage.get(r.id))),
    total: total?.n ?? 0,
    page: o.page,
    perPage: o.perPage,
  };
}
