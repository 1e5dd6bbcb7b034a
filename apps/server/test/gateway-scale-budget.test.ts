/**
 * Scale mode (issue 9, item 3): two gateway processes' worth of gateways on one PostgreSQL and one Redis spend an
 * account's RUs from one pool in leases. Many parallel calls through both overdraw by at most one call per
 * gateway, and draining the account leaves nothing stranded in leases.
 */
import { randomBytes } from 'node:crypto';
import { accounts, apiKeys } from '@rpc/db';
import {
  loadChains,
  startLocalnet,
  withUpstreams,
  type TChain,
  type TLocalnet,
} from '@rpc/gateway';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalInvalidationChannel } from '../src/gateway/local-invalidation';
import { RedisLeasedBalance } from '../src/gateway/redis-balance';
import { startDbGateway, type TDbGateway } from '../src/gateway/start-db-gateway';
import { appendRuLedger, ledgerBalance } from '../src/services/ledger/append-ru-ledger';
import { TEST_DATABASES } from './helpers/databases';
import { freePort, isReachable } from './helpers/net';
import { createHarness, type THarness } from './helpers/harness';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const postgres = TEST_DATABASES.find((d) => d.name === 'postgres');
const hasRedis = await isReachable(REDIS_URL, 6379);

// Scale mode is PostgreSQL + Redis by definition; without them (the embedded default's machine) there is nothing
// to share an RU pool between, and the single-process bound is tested in apps/gateway/test/billing.test.ts.
describe.skipIf(!postgres || !hasRedis)('scale mode: one RU pool across gateway processes', () => {
  let localnet: TLocalnet;
  let h: THarness;
  const gws: TDbGateway[] = [];
  const PRICE = 50; // eth_getLogs
  const START = 2000;

  beforeAll(async () => {
    localnet = await startLocalnet({ port: await freePort() });
    const chains: TChain[] = loadChains({}).map((c) =>
      c.id === 'localnet' ? withUpstreams(c, { full: [localnet.url] }, [localnet.wsUrl]) : c,
    );
    h = await createHarness(postgres!.open, { keyEvents: new LocalInvalidationChannel(), chains });
    const keyPrefix = `rpc:test-ru:${randomBytes(4).toString('hex')}:`;
    for (let i = 0; i < 2; i++)
      gws.push(
        await startDbGateway({
          deps: h.server.deps,
          port: 0,
          host: '127.0.0.1',
          flushIntervalMs: 60_000,
          healthCheckIntervalMs: 60_000,
          refreshIntervalMs: 60_000,
          redis: { url: REDIS_URL, keyPrefix, leaseRu: 500 },
        }),
      );
  });
  afterAll(async () => {
    for (const g of gws) await g.stop();
    await h?.close();
    await localnet?.stop();
  });

  it(`${START} RU, 200 parallel eth_getLogs (${PRICE} RU) over two gateways: over by at most two calls, none stranded`, async () => {
    const s = await h.signUp();
    const made = await h.call('hub_generateApiKey', { name: 'pool' }, { token: s.token });
    const key = made.result!;
    const [row] = await h.database.db
      .select({ accountId: apiKeys.accountId })
      .from(apiKeys)
      .where(eq(apiKeys.id, key.keyId));
    const accountId = row!.accountId;
    // Premium limits, so only the balance refuses; the balance brought down to START.
    await h.database.db.update(accounts).set({ tier: 'premium' }).where(eq(accounts.id, accountId));
    const gift = await ledgerBalance(h.database.db, accountId);
    await appendRuLedger(h.database.db, {
      accountId,
      delta: START - gift,
      kind: 'adjustment',
      ref: 'scale-test',
      at: Date.now(),
    });
    for (const g of gws) {
      await g.keys.refresh(key.keyId);
      await g.balance.resync([accountId]);
    }

    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getLogs',
      params: [{ fromBlock: '0x0', toBlock: 'latest' }],
    });
    const hit = (g: TDbGateway) =>
      fetch(`${g.url}/v1/localnet/${key.key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      });
    const burst = await Promise.all(Array.from({ length: 200 }, (_, i) => hit(gws[i % 2]!)));
    expect(burst.every((st) => st === 200 || st === 402)).toBe(true);
    let answered = burst.filter((st) => st === 200).length;
    expect(answered).toBeGreaterThan(0);
    expect(answered * PRICE).toBeLessThanOrEqual(START + 2 * PRICE);

    // Drain: keep calling both until both refuse twice in a row (a refusal also asks Redis for more).
    let refusedInARow = 0;
    for (let i = 0; i < 400 && refusedInARow < 4; i++) {
      const st = await hit(gws[i % 2]!);
      if (st === 200) {
        answered += 1;
        refusedInARow = 0;
      } else {
        refusedInARow += 1;
        await new Promise((r) => setTimeout(r, 30));
      }
    }
    for (const g of gws) await g.gateway.flushUsage();
    const left = await ledgerBalance(h.database.db, accountId);
    expect(left).toBe(START - answered * PRICE);
    // Never more than one call over per gateway, and nothing left stranded in a lease.
    expect(left).toBeGreaterThanOrEqual(-2 * PRICE);
    expect(left).toBeLessThanOrEqual(0);
  });

  it('an idle lease stays while the pool has plenty (the next call is served at once) and goes back when it is short', async () => {
    const s = await h.signUp();
    const made = await h.call('hub_generateApiKey', { name: 'idle' }, { token: s.token });
    const [row] = await h.database.db
      .select({ accountId: apiKeys.accountId })
      .from(apiKeys)
      .where(eq(apiKeys.id, made.result!.keyId));
    const accountId = row!.accountId;
    const keyPrefix = `rpc:test-idle:${randomBytes(4).toString('hex')}:`;
    const b = new RedisLeasedBalance({
      db: h.database.db,
      redisUrl: REDIS_URL,
      keyPrefix,
      leaseRu: 500,
      lowRuThreshold: 0,
      idleMs: 1,
    });
    await b.start();
    try {
      b.seen(accountId);
      await new Promise((r) => setTimeout(r, 20));
      await b.refill(accountId);
      expect(b.reserve(accountId, 10, 10)).toBe(true);
      b.settle(accountId, 10, 10);
      const leased = b.available(accountId);
      expect(leased).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 5));
      // The register gift is far more than two leases per live process: the lease is kept.
      await b.giveBackIdle();
      expect(b.available(accountId)).toBe(leased);
      expect(b.reserve(accountId, 10, 10)).toBe(true);
      b.settle(accountId, 10, 0);

      // The account is nearly spent: the idle lease goes back to the pool for the other processes.
      const balance = await ledgerBalance(h.database.db, accountId);
      await appendRuLedger(h.database.db, {
        accountId,
        delta: 300 - balance,
        kind: 'adjustment',
        ref: 'idle-test',
        at: Date.now(),
      });
      await b.resync([accountId]);
      await new Promise((r) => setTimeout(r, 5));
      await b.giveBackIdle();
      expect(b.available(accountId)).toBe(0);
    } finally {
      await b.stop();
    }
  });

  it('the gateways count each other alive, so each keeps half of a key’s concurrency', async () => {
    const live = () => gws.map((g) => (g.balance as RedisLeasedBalance).liveProcesses);
    // The first one started alone; it sees the second at its next heartbeat (every 3 s).
    for (let i = 0; i < 100 && live().some((n) => n !== 2); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(live()).toEqual([2, 2]);
  });
});
