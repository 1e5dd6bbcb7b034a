/**
 * End to end: console API + the real gateway wired to the database (startDbGateway) + a real Hardhat node.
 * A key made through hub_generateApiKey serves calls; usage lands in usage_minute, the ledger and `today` with the
 * RU table's exact prices; a deleted key is refused within a second; an account out of RU is refused and told.
 */
import { accounts, apiKeys, notices, ruLedger, usageMinute } from '@rpc/db';
import { RedisInvalidationChannel, type TChain, type TLocalnet } from '@rpc/gateway';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createServer } from '../src/server';
import { LocalInvalidationChannel } from '../src/gateway/local-invalidation';
import { startDbGateway, type TDbGateway } from '../src/gateway/start-db-gateway';
import {
  appendRuLedger,
  cachedRuBalance,
  ledgerBalance,
} from '../src/services/ledger/append-ru-ledger';
import { TEST_DATABASES } from './helpers/databases';
import { startTestLocalnet } from './helpers/localnet';
import { isReachable } from './helpers/net';
import { createHarness, TEST_API_KEY_SECRET, type THarness } from './helpers/harness';

const GIFT = 1_000_000;
const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'; // Hardhat's first funded account

async function post(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & unknown[] };
}

let localnet: TLocalnet;
let chains: TChain[];
beforeAll(async () => {
  ({ localnet, chains } = await startTestLocalnet());
});
afterAll(async () => {
  await localnet?.stop();
});

describe.each(TEST_DATABASES)('gateway wired to the database on $name', ({ open }) => {
  let h: THarness;
  let gw: TDbGateway;
  beforeAll(async () => {
    h = await createHarness(open, { keyEvents: new LocalInvalidationChannel(), chains });
    gw = await startDbGateway({
      deps: h.server.deps,
      port: 0,
      host: '127.0.0.1',
      flushIntervalMs: 60_000, // the tests flush by hand
      healthCheckIntervalMs: 60_000,
      refreshIntervalMs: 300,
    });
  });
  afterAll(async () => {
    await gw?.stop();
    await h?.close();
  });

  async function signedUpWithKey(name: string) {
    const s = await h.signUp();
    const made = await h.call('hub_generateApiKey', { name }, { token: s.token });
    if (!made.ok) throw new Error(JSON.stringify(made.error));
    const key = made.result;
    const chain = (await h.call('hub_getSupportChains', {})).result!.list.find(
      (c) => c.id === 'localnet',
    )!;
    // The console's template points at the configured public URL; the test talks to the real port.
    expect(chain.httpUrlTemplate).toBe('http://gw.test/v1/localnet/{key}');
    const [row] = await h.database.db
      .select({ accountId: accounts.id })
      .from(accounts)
      .innerJoin(apiKeys, eq(apiKeys.accountId, accounts.id))
      .where(eq(apiKeys.id, key.keyId));
    return {
      ...s,
      key,
      accountId: row!.accountId,
      url: `${gw.url}/v1/localnet/${key.key}`,
    };
  }

  it('meters real calls exactly by the RU table into usage_minute, the ledger and `today`', async () => {
    const u = await signedUpWithKey('e2e');
    const one = await post(u.url, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: 1, result: expect.stringMatching(/^0x/) });
    const bal = await post(u.url, {
      jsonrpc: '2.0',
      id: 2,
      method: 'eth_getBalance',
      params: [ACCOUNT, 'latest'],
    });
    expect(bal.body).toMatchObject({ id: 2, result: expect.stringMatching(/^0x[0-9a-f]+$/) });
    const batch = await post(u.url, [
      { jsonrpc: '2.0', id: 'a', method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 'b', method: 'eth_blockNumber', params: [] },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.body).toEqual([
      { jsonrpc: '2.0', id: 'a', result: '0x7a69' },
      { jsonrpc: '2.0', id: 'b', result: expect.stringMatching(/^0x/) },
    ]);

    // Before the flush a re-sync (the periodic one) must not hand the spent RUs back.
    await gw.balance.resync([u.accountId]);
    expect(gw.balance.get(u.accountId)).toBe(GIFT - 40);
    expect(await cachedRuBalance(h.database.db, u.accountId)).toBe(GIFT);

    await gw.gateway.flushUsage();
    await gw.gateway.flushUsage(); // nothing new: nothing written twice

    const rows = await h.database.db
      .select()
      .from(usageMinute)
      .where(eq(usageMinute.keyId, u.key.keyId))
      .orderBy(usageMinute.method);
    expect(rows.map((r) => [r.chain, r.method, r.requests, r.ru, r.errors])).toEqual([
      ['localnet', 'eth_blockNumber', 2, 20, 0],
      ['localnet', 'eth_chainId', 1, 5, 0],
      ['localnet', 'eth_getBalance', 1, 15, 0],
    ]);
    expect(rows.every((r) => r.accountId === u.accountId)).toBe(true);

    const listed = await h.call('hub_getApiKeys', {}, { token: u.token });
    expect(listed.result!.list[0]!.today).toEqual({ requests: 4, ru: 40 });

    const debits = await h.database.db
      .select({ delta: ruLedger.delta })
      .from(ruLedger)
      .where(and(eq(ruLedger.accountId, u.accountId), eq(ruLedger.kind, 'usage')));
    expect(debits).toEqual([{ delta: -40 }]);
    expect(await ledgerBalance(h.database.db, u.accountId)).toBe(GIFT - 40);
    expect(await cachedRuBalance(h.database.db, u.accountId)).toBe(GIFT - 40);
    expect(gw.balance.get(u.accountId)).toBe(GIFT - 40);
  });

  it('refuses a key deleted through the API within one second; a paused key too', async () => {
    const u = await signedUpWithKey('short-lived');
    const call = () => post(u.url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
    expect((await call()).status).toBe(200);

    await h.call('hub_updateApiKey', { keyId: u.key.keyId, paused: true }, { token: u.token });
    const paused = await waitFor(call, (r) => r.status === 403, 1000);
    expect(paused.body).toMatchObject({ error: { code: -32004 } });
    await h.call('hub_updateApiKey', { keyId: u.key.keyId, paused: false }, { token: u.token });
    await waitFor(call, (r) => r.status === 200, 1000);

    const started = Date.now();
    expect((await h.call('hub_deleteApiKey', { keyId: u.key.keyId }, { token: u.token })).ok).toBe(
      true,
    );
    const refused = await waitFor(call, (r) => r.status === 401, 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(refused.body).toMatchObject({ error: { code: -32003 } });
  });

  it('picks up a key change whose invalidation was lost, by the periodic refresh', async () => {
    const u = await signedUpWithKey('missed');
    const call = () => post(u.url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
    expect((await call()).status).toBe(200);
    // Changed behind the channel's back (as if Redis had been down when it was published).
    await h.database.db
      .update(apiKeys)
      .set({ paused: true, updatedAt: new Date() })
      .where(eq(apiKeys.id, u.key.keyId));
    expect((await waitFor(call, (r) => r.status === 403, 3000)).status).toBe(403);
  });

  it('refuses calls once the account has no RU, with a clear error, low_ru and one api_service_is_paused notice', async () => {
    const u = await signedUpWithKey('spender');
    // Leave exactly one eth_blockNumber's worth (10 RU).
    await appendRuLedger(h.database.db, {
      accountId: u.accountId,
      delta: -(GIFT - 10),
      kind: 'adjustment',
      ref: 'test-drain',
      at: Date.now(),
    });
    await gw.balance.resync([u.accountId]); // what the periodic refresh does
    await gw.notifier.settle();
    const call = () =>
      post(u.url, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
    expect((await call()).status).toBe(200);
    await gw.gateway.flushUsage();
    expect(await ledgerBalance(h.database.db, u.accountId)).toBe(0);

    const refused = await call();
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      error: { code: -32006, message: expect.stringContaining('no RU left') },
    });
    expect((await call()).status).toBe(402);
    await gw.notifier.settle();

    const stored = await h.database.db
      .select({ type: notices.type, accountId: notices.accountId })
      .from(notices)
      .where(eq(notices.accountId, u.accountId));
    const types = stored.map((n) => n.type);
    expect(types.filter((t) => t === 'api_service_is_paused')).toHaveLength(1);
    expect(types.filter((t) => t === 'low_ru')).toHaveLength(1);
    // Refused calls are not charged.
    await gw.gateway.flushUsage();
    expect(await ledgerBalance(h.database.db, u.accountId)).toBe(0);
    expect(await cachedRuBalance(h.database.db, u.accountId)).toBe(0);
  });
});

async function waitFor<T>(
  fn: () => Promise<T>,
  ok: (v: T) => boolean,
  withinMs: number,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const hasRedis = await isReachable(REDIS_URL, 6379);

describe.skipIf(!hasRedis)('scale mode: console and gateway apart, key changes over Redis', () => {
  let h: THarness;
  let gw: TDbGateway;
  let gatewaySide: RedisInvalidationChannel;
  let consoleSide: RedisInvalidationChannel;
  beforeAll(async () => {
    // Two channel instances, two Redis connections: as a console process and a gateway process would have.
    consoleSide = new RedisInvalidationChannel(REDIS_URL);
    await consoleSide.start();
    h = await createHarness(() => TEST_DATABASES[0]!.open(), { chains, keyEvents: consoleSide });
    gatewaySide = new RedisInvalidationChannel(REDIS_URL);
    await gatewaySide.start();
    gw = await startDbGateway({
      deps: { ...h.server.deps, keyEvents: gatewaySide },
      port: 0,
      host: '127.0.0.1',
      flushIntervalMs: 60_000,
      healthCheckIntervalMs: 60_000,
    });
  });
  afterAll(async () => {
    await gw?.stop();
    await gatewaySide?.close();
    await h?.close();
    await consoleSide?.close();
  });

  it('serves a key created by the console and refuses it within a second of its deletion', async () => {
    const s = await h.signUp();
    const made = await h.call('hub_generateApiKey', { name: 'over redis' }, { token: s.token });
    const url = `${gw.url}/v1/localnet/${made.result!.key}`;
    const call = () => post(url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
    expect((await waitFor(call, (r) => r.status === 200, 1000)).status).toBe(200);
    const started = Date.now();
    await h.call('hub_deleteApiKey', { keyId: made.result!.keyId }, { token: s.token });
    expect((await waitFor(call, (r) => r.status === 401, 1000)).status).toBe(401);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('createServer picks the Redis channel when REDIS_URL is set', async () => {
    const server = await createServer({
      db: h.database.db,
      logger: pino({ level: 'silent' }),
      // A second process on the same database shares its API_KEY_SECRET, or it refuses to start.
      env: { PORT: 0, REDIS_URL, API_KEY_SECRET: TEST_API_KEY_SECRET },
      webDistDir: '/nonexistent',
    });
    expect(server.deps.keyEvents).toBeInstanceOf(RedisInvalidationChannel);
    await server.stop();
  });
});
