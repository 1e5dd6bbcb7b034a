/**
 * API keys at rest (docs/decisions/api-key-storage.md), on each test database: no table holds a key in plain text,
 * yet the console shows it and the gateway serves it; keys stored in plain text by an earlier version are sealed at
 * start and a restart changes nothing; a missing or wrong API_KEY_SECRET stops the server with a clear message.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { apiKeys, openDatabase, type TDatabase } from '@rpc/db';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDbKeyLoader } from '../src/gateway/key-loader';
import { resolveApiKeySecret } from '../src/lib/api-key-secret';
import {
  prepareApiKeyStorage,
  sealLegacyApiKeys,
} from '../src/services/api-keys/prepare-api-key-storage';
import { createServer } from '../src/server';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, TEST_API_KEY_SECRET, type THarness } from './helpers/harness';
import { legacyDatabase } from './helpers/legacy-database';

const silent = pino({ level: 'silent' });
/** The last migration before keys were sealed. */
const LAST_PLAIN_TEXT_MIGRATION = '0004_usage_rollups_by_key_and_chain';

/** Rows of a db.execute() answer: an array on postgres-js, { rows } on PGlite. */
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

/** Every row of every table, as text: where a stored key would show up, whatever the column. */
async function everyStoredRow(db: TDatabase): Promise<string[]> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    ),
  );
  expect(tables.map((t) => t.name)).toContain('api_keys');
  const out: string[] = [];
  for (const { name } of tables) {
    const rows = rowsOf<{ r: string }>(
      await db.execute(sql.raw(`select t::text as r from "${name}" t`)),
    );
    out.push(...rows.map((row) => `${name}: ${row.r}`));
  }
  return out;
}

function hexKey(): string {
  return randomBytes(32).toString('hex');
}

describe.each(TEST_DATABASES)('API keys at rest on $name', ({ name: kind, open }) => {
  let h: THarness;
  beforeAll(async () => {
    h = await createHarness(open);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('stores a new key in no table in plain text, yet lists it, finds it and the gateway loads it', async () => {
    const s = await h.signUp();
    const made = await h.call('hub_generateApiKey', { name: 'sealed' }, { token: s.token });
    if (!made.ok) throw new Error(JSON.stringify(made.error));
    const { key, keyId } = made.result;
    expect(key).toMatch(/^[0-9a-f]{64}$/);

    const [row] = rowsOf<Record<string, unknown>>(
      await h.database.db.execute(sql`select * from api_keys where id = ${keyId}`),
    );
    expect(row).toBeDefined();
    for (const [column, value] of Object.entries(row!))
      expect(JSON.stringify(value) ?? '', `api_keys.${column}`).not.toContain(key);
    expect(row).toMatchObject({
      legacy_key: null,
      key_hash: h.server.deps.apiKeyCipher.hash(key),
      key_ciphertext: expect.stringMatching(/^v1:/),
    });
    expect((await everyStoredRow(h.database.db)).filter((r) => r.includes(key))).toEqual([]);

    // The owner sees it again, by id, in the list and by searching part of it.
    const t = { token: s.token };
    expect((await h.call('hub_getApiKey', { keyId }, t)).result!.key).toBe(key);
    expect((await h.call('hub_getApiKeys', {}, t)).result!.list.map((k) => k.key)).toEqual([key]);
    const found = await h.call('hub_getApiKeys', { search: key.slice(5, 25).toUpperCase() }, t);
    expect(found.result).toMatchObject({ total: 1, list: [{ keyId, key }] });
    expect((await h.call('hub_getApiKeys', { search: 'not-in-any-key' }, t)).result!.total).toBe(0);

    // The gateway's loader opens it into memory; the hash finds the row by key.
    const loader = createDbKeyLoader(h.database.db, h.server.deps.apiKeyCipher);
    expect((await loader.loadOne(keyId))?.key).toBe(key);
    expect((await loader.loadAll()).find((k) => k.keyId === keyId)?.key).toBe(key);
    const [byHash] = await h.database.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, h.server.deps.apiKeyCipher.hash(key)));
    expect(byHash?.id).toBe(keyId);
  });

  it('refuses to start in scale mode without API_KEY_SECRET, naming the variable', async () => {
    await expect(
      createServer({
        db: h.database.db,
        logger: silent,
        webDistDir: '/nonexistent',
        env: {
          PORT: 0,
          DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
          API_KEY_SECRET: undefined,
        },
      }),
    ).rejects.toThrowError(/API_KEY_SECRET is required when DATABASE_URL is set/);
  });

  it('refuses a secret other than the one its keys were sealed with, even without the fingerprint row', async () => {
    const s = await h.signUp();
    await h.call('hub_generateApiKey', { name: 'before' }, { token: s.token });
    const start = (secret: string) =>
      createServer({
        db: h.database.db,
        logger: silent,
        webDistDir: '/nonexistent',
        env: { PORT: 0, API_KEY_SECRET: secret },
      });
    const wrong = 'a-different-secret-of-enough-length-0123456789';
    await expect(start(wrong)).rejects.toThrowError(
      /API_KEY_SECRET is not the secret|does not decrypt/,
    );
    await expect(start('too-short')).rejects.toThrowError(/at least 32 characters/);
    // Lost fingerprint: the sealed keys themselves still refuse the wrong secret, and nothing is recorded for it.
    await h.database.db.execute(sql`delete from secret_fingerprints`);
    await expect(start(wrong)).rejects.toThrowError(/does not decrypt/);
    const fingerprints = rowsOf<{ fingerprint: string }>(
      await h.database.db.execute(sql`select fingerprint from secret_fingerprints`),
    );
    expect(fingerprints).toEqual([]);
    const right = await start(TEST_API_KEY_SECRET);
    await right.stop();
  });

  it('seals keys an earlier version stored in plain text at start, deleted ones too; a restart changes nothing', async () => {
    const accountId = randomUUID();
    const live = { id: randomUUID(), key: hexKey() };
    const deleted = { id: randomUUID(), key: hexKey() };
    const legacy = await legacyDatabase(
      kind,
      LAST_PLAIN_TEXT_MIGRATION,
      `insert into accounts (id, kind, name) values ('${accountId}', 'team', 'legacy team');
       insert into api_keys (id, account_id, name, key, deleted_at) values
         ('${live.id}', '${accountId}', 'old live', '${live.key}', null),
         ('${deleted.id}', '${accountId}', 'old deleted', '${deleted.key}', now());`,
    );
    try {
      const first = await createHarness(legacy.open);
      const cipher = first.server.deps.apiKeyCipher;
      const sealed = await first.database.db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.accountId, accountId))
        .orderBy(apiKeys.name);
      expect(sealed.map((r) => [r.name, r.legacyKey, r.keyHash])).toEqual([
        ['old deleted', null, cipher.hash(deleted.key)],
        ['old live', null, cipher.hash(live.key)],
      ]);
      expect(sealed.map((r) => cipher.open(r.id, r.keyCiphertext!))).toEqual([
        deleted.key,
        live.key,
      ]);
      const stored = await everyStoredRow(first.database.db);
      expect(stored.filter((r) => r.includes(live.key) || r.includes(deleted.key))).toEqual([]);
      // The gateway serves the old live key by its old value, and not the deleted one.
      const loaded = await createDbKeyLoader(
        first.database.db,
        first.server.deps.apiKeyCipher,
      ).loadAll();
      expect(loaded.filter((k) => k.accountId === accountId).map((k) => k.key)).toEqual([live.key]);
      // Again in the same process: nothing left to seal.
      expect(await sealLegacyApiKeys(first.database.db, cipher)).toBe(0);
      await first.close();

      // A restart (same secret) opens the same database and rewrites nothing.
      const second = await createHarness(legacy.open);
      const after = await second.database.db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.accountId, accountId))
        .orderBy(apiKeys.name);
      expect(after).toEqual(sealed);
      await second.close();
    } finally {
      await legacy.destroy();
    }
  });
});

describe('API_KEY_SECRET in the embedded default', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'api-key-secret-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is generated once into DATA_DIR/api-key-secret (mode 0600) and read back after', async () => {
    const dataDir = path.join(dir, 'once');
    const first = await resolveApiKeySecret({ DATA_DIR: dataDir });
    expect(first).toMatchObject({
      source: 'generated',
      file: path.join(dataDir, 'api-key-secret'),
    });
    expect(first.secret.length).toBeGreaterThanOrEqual(32);
    if (process.platform !== 'win32') expect((await stat(first.file!)).mode & 0o777).toBe(0o600);
    expect(await resolveApiKeySecret({ DATA_DIR: dataDir })).toEqual({ ...first, source: 'file' });
    expect(
      await resolveApiKeySecret({ DATA_DIR: dataDir, API_KEY_SECRET: 'x'.repeat(32) }),
    ).toEqual({ secret: 'x'.repeat(32), source: 'env' });
  });

  it('gives processes starting at once the same secret', async () => {
    const dataDir = path.join(dir, 'race');
    const all = await Promise.all(
      Array.from({ length: 8 }, () => resolveApiKeySecret({ DATA_DIR: dataDir })),
    );
    expect(new Set(all.map((s) => s.secret)).size).toBe(1);
    expect(all.filter((s) => s.source === 'generated')).toHaveLength(1);
  });

  it('refuses a file holding no usable secret, and scale mode without the variable', async () => {
    const dataDir = path.join(dir, 'bad');
    await mkdir(dataDir);
    await writeFile(path.join(dataDir, 'api-key-secret'), 'short\n');
    await expect(resolveApiKeySecret({ DATA_DIR: dataDir })).rejects.toThrowError(
      /at least 32 characters/,
    );
    await expect(
      resolveApiKeySecret({ DATA_DIR: dir, DATABASE_URL: 'postgres://x@localhost/db' }),
    ).rejects.toThrowError(/API_KEY_SECRET is required when DATABASE_URL is set/);
  });

  it('needs no configuration: key storage is prepared with the generated file’s secret', async () => {
    const dataDir = path.join(dir, 'server');
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      const cipher = await prepareApiKeyStorage({
        db: db.db,
        env: { DATA_DIR: dataDir },
        logger: silent,
      });
      const secret = (await readFile(path.join(dataDir, 'api-key-secret'), 'utf8')).trim();
      expect(cipher.hash('k')).toBe(
        (
          await prepareApiKeyStorage({
            db: db.db,
            env: { API_KEY_SECRET: secret, DATA_DIR: dir },
            logger: silent,
          })
        ).hash('k'),
      );
    } finally {
      await db.close();
    }
  });
});
