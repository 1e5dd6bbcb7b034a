/** Shared by the API-key services: the row → contract mapping, ownership lookup, today's usage, invalidation. */
import { ERROR_CODES, type TApiKey } from '@rpc/contract';
import { apiKeys, usageMinute, type TApiKeyRow, type TExecutor } from '@rpc/db';
import type { TKeyEvents } from '../../gateway/local-invalidation';
import { and, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import { ApiKeySecretError, type TApiKeyCipher } from '../../lib/api-key-cipher';
import type { TLogger } from '../../lib/logger';
import { RpcError } from '../../rpc/errors';

export type TTodayUsage = TApiKey['today'];
const NO_USAGE: TTodayUsage = { requests: 0, ru: 0 };
const DAY_MS = 86_400_000;

/** The key itself, opened from its ciphertext (every row is sealed once the server has started). */
export function openKey(
  cipher: TApiKeyCipher,
  row: Pick<TApiKeyRow, 'id' | 'keyCiphertext'>,
): string {
  if (!row.keyCiphertext) throw new ApiKeySecretError(`API key ${row.id} is not sealed yet`);
  return cipher.open(row.id, row.keyCiphertext);
}

export function toApiKey(
  cipher: TApiKeyCipher,
  row: TApiKeyRow,
  today: TTodayUsage = NO_USAGE,
): TApiKey {
  return {
    keyId: row.id,
    name: row.name,
    key: openKey(cipher, row),
    createdAt: row.createdAt.getTime(),
    paused: row.paused,
    archiveMode: row.archiveMode,
    mev: row.mev as TApiKey['mev'],
    bundler: row.bundler as TApiKey['bundler'],
    allowlists: row.allowlists,
    today,
  };
}

/** A live key of `accountId`, or 50404 (another account's key and a deleted key look the same). */
export async function findOwnKey(
  db: TExecutor,
  accountId: string,
  keyId: string,
): Promise<TApiKeyRow> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId), isNull(apiKeys.deletedAt)))
    .limit(1);
  if (!row) throw new RpcError(ERROR_CODES.NOT_FOUND);
  return row;
}

/** Requests and RUs since the start of the current UTC day, for many keys in one query. */
export async function todayUsage(
  db: TExecutor,
  keyIds: string[],
  now: number,
): Promise<Map<string, TTodayUsage>> {
  const out = new Map<string, TTodayUsage>();
  if (keyIds.length === 0) return out;
  const dayStart = new Date(now - (now % DAY_MS));
  const rows = await db
    .select({
      keyId: usageMinute.keyId,
      requests: sql<string>`coalesce(sum(${usageMinute.requests}), 0)`,
      ru: sql<string>`coalesce(sum(${usageMinute.ru}), 0)`,
    })
    .from(usageMinute)
    .where(and(inArray(usageMinute.keyId, keyIds), gte(usageMinute.minute, dayStart)))
    .groupBy(usageMinute.keyId);
  for (const r of rows) out.set(r.keyId, { requests: Number(r.requests), ru: Number(r.ru) });
  return out;
}

export async function withToday(
  o: { db: TExecutor; apiKeyCipher: TApiKeyCipher },
  row: TApiKeyRow,
  now: number,
): Promise<TApiKey> {
  const usage = await todayUsage(o.db, [row.id], now);
  return toApiKey(o.apiKeyCipher, row, usage.get(row.id));
}

/**
 * Tells every gateway process that the key changed (after the commit). A failed publish is logged, not thrown:
 * the change is stored, and the gateways' periodic full reload picks it up.
 */
export async function publishKeyChange(
  o: { keyEvents: TKeyEvents; logger: TLogger },
  keyId: string,
): Promise<void> {
  try {
    await o.keyEvents.publish(keyId);
  } catch (err) {
    o.logger.error({ err, keyId }, 'key invalidation publish failed');
  }
}
