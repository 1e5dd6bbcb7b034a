import type { TParams, TResult } from '@rpc/contract';
import { apiKeys } from '@rpc/db';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';
import { openKey, toApiKey, todayUsage } from './api-key-rows';

type TOptions = Pick<TRpcContext, 'db' | 'clock' | 'apiKeyCipher'> & {
  auth: TAuth;
} & TParams<'hub_getApiKeys'>;

/** `%`, `_` and `\` match themselves: a search for "50%" finds "50%", not everything. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function getApiKeys(o: TOptions): Promise<TResult<'hub_getApiKeys'>> {
  const live = and(eq(apiKeys.accountId, o.auth.account.id), isNull(apiKeys.deletedAt));
  const newestFirst = [desc(apiKeys.createdAt), desc(apiKeys.id)];
  const offset = (o.page - 1) * o.perPage;
  let rows;
  let total: number;
  if (o.search) {
    // Keys are ciphertext at rest, so SQL matches names only and the keys are matched once opened. An account's
    // live keys are few (MAX_API_KEYS_PER_ACCOUNT), so it reads them all. PostgreSQL's default LIKE escape
    // character is the backslash, on both drivers.
    const pattern = `%${escapeLike(o.search)}%`;
    const needle = o.search.toLowerCase();
    const all = await o.db
      .select({ row: apiKeys, nameMatches: sql<boolean>`${apiKeys.name} ilike ${pattern}` })
      .from(apiKeys)
      .where(live)
      .orderBy(...newestFirst);
    const matches = all
      .filter((r) => r.nameMatches || openKey(o.apiKeyCipher, r.row).toLowerCase().includes(needle))
      .map((r) => r.row);
    total = matches.length;
    rows = matches.slice(offset, offset + o.perPage);
  } else {
    const [n] = await o.db.select({ n: count() }).from(apiKeys).where(live);
    total = n?.n ?? 0;
    rows = await o.db
      .select()
      .from(apiKeys)
      .where(live)
      .orderBy(...newestFirst)
      .limit(o.perPage)
      .offset(offset);
  }
  const usage = await todayUsage(
    o.db,
    rows.map((r) => r.id),
    o.clock.now(),
  );
  return {
    list: rows.map((r) => toApiKey(o.apiKeyCipher, r, usage.get(r.id))),
    total,
    page: o.page,
    perPage: o.perPage,
  };
}
