/**
 * Loads API keys for the gateway's in-memory key cache: every live key at start, one key by id on change. Keys are
 * opened from their ciphertext here; plain text lives only in the process's memory, never at rest.
 */
import { accounts, apiKeys, type TDatabase, spendableRu } from '@rpc/db';
import { type TKeyInfo, type TKeyLoader, type TBundler, type TMevMode } from '@rpc/gateway';
import { eq, isNull } from 'drizzle-orm';
import type { TApiKeyCipher } from '../lib/api-key-cipher';
import { openKey } from '../services/api-keys/api-key-rows';
import { tierOf } from '../services/chains/get-user-limit-info';

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const columns = {
  id: apiKeys.id,
  keyCiphertext: apiKeys.keyCiphertext,
  accountId: apiKeys.accountId,
  paused: apiKeys.paused,
  archiveMode: apiKeys.archiveMode,
  mev: apiKeys.mev,
  bundler: apiKeys.bundler,
  allowlists: apiKeys.allowlists,
  deletedAt: apiKeys.deletedAt,
  tier: accounts.tier,
  ruBalance: spendableRu,
};

type TLoadedRow = {
  id: string;
  keyCiphertext: string | null;
  accountId: string;
  paused: boolean;
  archiveMode: boolean;
  mev: string;
  bundler: string;
  allowlists: TKeyInfo['allowlists'];
  deletedAt: Date | null;
  tier: string;
  ruBalance: number;
};

function toKeyInfo(cipher: TApiKeyCipher, r: TLoadedRow): TKeyInfo {
  const tier = tierOf(r.tier);
  return {
    key: openKey(cipher, r),
    keyId: r.id,
    accountId: r.accountId,
    paused: r.paused,
    deleted: r.deletedAt !== null,
    archiveMode: r.archiveMode,
    mev: r.mev as TMevMode,
    bundler: r.bundler as TBundler,
    allowlists: r.allowlists,
    tier: { reqPerSec: tier.reqPerSec, ruPerSec: tier.ruPerSec, concurrency: tier.concurrency },
  };
}

/**
 * `cipher` is the one createServer checked against this database (deps.apiKeyCipher). `onAccountSeen` receives
 * each loaded key's account balance, so an account created after the gateway started has a balance in the cache
 * by the time its first key is served.
 */
export function createDbKeyLoader(
  db: TDatabase,
  cipher: TApiKeyCipher,
  onAccountSeen: (accountId: string, ruBalance: number) => void = () => {},
  /**
   * A key was reloaded after a change: its account's RUs or tier may have moved with it (a purchase publishes
   * every key of the account), so the balance is re-read before the reload counts as done.
   */
  onKeyReloaded: (accountId: string) => Promise<void> = async () => {},
): TKeyLoader {
  return {
    loadAll: async () => {
      const rows = await db
        .select(columns)
        .from(apiKeys)
        .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
        .where(isNull(apiKeys.deletedAt));
      for (const r of rows) onAccountSeen(r.accountId, r.ruBalance);
      return rows.map((r) => toKeyInfo(cipher, r));
    },
    loadOne: async (keyId) => {
      if (!UUID_SHAPE.test(keyId)) return undefined;
      const [row] = await db
        .select(columns)
        .from(apiKeys)
        .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
        .where(eq(apiKeys.id, keyId))
        .limit(1);
      if (!row || row.deletedAt) return undefined;
      onAccountSeen(row.accountId, row.ruBalance);
      await onKeyReloaded(row.accountId);
      return toKeyInfo(cipher, row);
    },
  };
}
