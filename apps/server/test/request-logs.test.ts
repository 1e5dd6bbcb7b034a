/**
 * The per-key request log (issue 16) on each database: calls made through the real gateway (HTTP single, batch and
 * WebSocket, against a Hardhat node) reach request_log_windows through the SQL sink, and hub_getApiKeyRequestLogs pages
 * and filters them for the key's own account only; refusals keep their code; bad input answers 10004 and changes
 * nothing; the bounds (retention, newest N per key) hold in answers and after the idempotent prune.
 */
import { randomUUID } from 'node:crypto';
import {
  ERROR_CODES,
  REQUEST_LOG_MAX_ROWS_PER_KEY,
  type TParamsIn,
  type TResult,
} from '@rpc/contract';
import { apiKeys, requestLogDrops, requestLogWindows, type TDatabase } from '@rpc/db';
import type { TChain, TLocalnet, TRequestLogEntry } from '@rpc/gateway';
import { count, eq, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LocalInvalidationChannel } from '../src/gateway/local-invalidation';
import { startDbGateway, type TDbGateway } from '../src/gateway/start-db-gateway';
import { pruneRequestLogs } from '../src/services/request-logs/prune-request-logs';
import { writeRequestLogBatch } from '../src/services/request-logs/write-request-log-batch';
import { TEST_DATABASES } from './helpers/databases';
import { startTestLocalnet } from './helpers/localnet';
import { createHarness, type THarness } from './helpers/harness';

const HOUR = 3_600_000;

let localnet: TLocalnet;
let chains: TChain[];
beforeAll(async () => {
  ({ localnet, chains } = await startTestLocalnet());
});
afterAll(async () => {
  await localnet?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(TEST_DATABASES)('request log on $name', ({ open }) => {
  let h: THarness;
  let gw: TDbGateway;
  let db: TDatabase;
  beforeAll(async () => {
    h = await createHarness(open, { keyEvents: new LocalInvalidationChannel(), chains });
    db = h.database.db;
    gw = await startDbGateway({
      deps: h.server.deps,
      port: 0,
      host: '127.0.0.1',
      flushIntervalMs: 60_000, // flushed by hand
      healthCheckIntervalMs: 60_000,
      refreshIntervalMs: 60_000,
    });
  });
  afterAll(async () => {
    await gw?.stop();
    await h?.close();
  });

  const syncClock = () => h.clock.advance(Date.now() - h.clock.now());

  async function accountWithKey(name = 'logged') {
    const s = await h.signUp();
    const made = await h.call('hub_generateApiKey', { name }, { token: s.token });
    if (!made.ok) throw new Error(JSON.stringify(made.error));
    const [row] = await db
      .select({ accountId: apiKeys.accountId })
      .from(apiKeys)
      .where(eq(apiKeys.id, made.result.keyId));
    const logs = async (
      params: Omit<TParamsIn<'hub_getApiKeyRequestLogs'>, 'keyId'> & { keyId?: string } = {},
    ): Promise<TResult<'hub_getApiKeyRequestLogs'>> => {
      syncClock();
      const res = await h.call(
        'hub_getApiKeyRequestLogs',
        { keyId: made.result.keyId, perPage: 100, ...params },
        { token: s.token },
      );
      if (!res.ok) throw new Error(JSON.stringify(res.error));
      return res.result;
    };
    return { ...s, key: made.result, accountId: row!.accountId, logs };
  }

  async function post(url: string, body: unknown) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  }

  const rpc = (method: string, params: unknown[] = [], id: unknown = 1) => ({
    jsonrpc: '2.0',
    id,
    method,
    params,
  });

  it('logs single, batch and WebSocket calls with their outcome and code, and never params or results', async () => {
    const a = await accountWithKey();
    const url = `${gw.url}/v1/localnet/${a.key.key}`;
    expect((await post(url, rpc('eth_chainId'))).status).toBe(200);
    // The node refuses bad call data: an answered error, with the node's code.
    const secret = '0x00000000000000000000000000000000000000aa';
    const bad = await post(url, rpc('eth_call', [{ to: secret, data: '0xzz' }, 'latest']));
    const nodeCode = (bad.body as { error: { code: number } }).error.code;
    expect(typeof nodeCode).toBe('number');
    const batch = await post(url, [
      rpc('eth_blockNumber', [], 10),
      rpc('admin_peers', [], 11),
      { jsonrpc: '2.0', id: 12 },
    ]);
    expect(batch.status).toBe(200);

    const ws = new WebSocket(url.replace('http', 'ws'));
    const messages: { id?: unknown; method?: string; error?: { code: number } }[] = [];
    ws.on('message', (d) => messages.push(JSON.parse(d.toString()) as never));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const until = async (pred: () => boolean) => {
      for (let i = 0; i < 200 && !pred(); i++) await sleep(25);
      expect(pred()).toBe(true);
    };
    // One at a time, so the log's order is known.
    ws.send(JSON.stringify(rpc('eth_getBalance', [secret, 'latest'], 1)));
    await until(() => messages.some((m) => m.id === 1));
    ws.send(JSON.stringify(rpc('eth_subscribe', ['newHeads'], 2)));
    await until(() => messages.some((m) => m.id === 2));
    await post(localnet.url, rpc('evm_mine'));
    await until(() => messages.some((m) => m.method === 'eth_subscription'));
    ws.send('{not json');
    await until(() => messages.some((m) => m.error?.code === -32700));
    ws.close();
    await gw.gateway.flushUsage();

    const all = await a.logs();
    const brief = (list: typeof all.list) =>
      list.map((e) => `${e.transport} ${e.method || '-'} ${e.outcome} ${e.errorCode ?? ''}`.trim());
    // Newest first.
    expect(brief(all.list).reverse()).toEqual([
      'http eth_chainId ok',
      `http eth_call rpc_error ${nodeCode}`,
      'http admin_peers refused -32601',
      'http - refused -32600',
      'http eth_blockNumber ok',
      'ws eth_getBalance ok',
      'ws eth_subscribe ok',
      'ws eth_subscription ok',
      'ws - refused -32700',
    ]);
    expect(all.total).toBe(9);
    expect(all.dropped).toBe(0);
    expect(all.retentionHours).toBe(72);
    expect(all.maxEntries).toBe(REQUEST_LOG_MAX_ROWS_PER_KEY);
    for (const e of all.list) {
      expect(e.chain).toBe('localnet');
      expect(Math.abs(e.at - Date.now())).toBeLessThan(60_000);
      expect(e.latencyMs).toBeGreaterThanOrEqual(0);
    }
    expect(all.list.find((e) => e.method === 'eth_chainId')!.ru).toBeGreaterThan(0);
    expect(all.list.find((e) => e.method === 'admin_peers')!.ru).toBe(0);
    // Nothing of the params or results is stored, in any column.
    const stored = await db
      .select()
      .from(requestLogWindows)
      .where(eq(requestLogWindows.keyId, a.key.keyId));
    expect(stored.reduce((n, w) => n + w.n, 0)).toBe(9);
    expect(stored.flatMap((w) => w.entries)).toHaveLength(9);
    expect(JSON.stringify(stored)).not.toContain(secret.slice(2));
    expect(JSON.stringify(stored)).not.toContain('0xzz');

    // Filters: a part of the method in any case, the outcome groups, paging.
    expect(brief((await a.logs({ method: 'CHAIN' })).list)).toEqual(['http eth_chainId ok']);
    expect((await a.logs({ outcome: 'ok' })).list.every((e) => e.outcome === 'ok')).toBe(true);
    expect((await a.logs({ outcome: 'ok' })).total).toBe(5);
    expect(brief((await a.logs({ outcome: 'errors' })).list)).toEqual([
      `http eth_call rpc_error ${nodeCode}`,
    ]);
    expect((await a.logs({ outcome: 'refused' })).total).toBe(3);
    const page2 = await a.logs({ page: 2, perPage: 5 });
    expect(page2.list).toHaveLength(4);
    expect(page2).toMatchObject({ page: 2, perPage: 5, total: 9 });
    expect(page2.list).toEqual(all.list.slice(5));
    expect((await a.logs({ page: 3, perPage: 5 })).list).toEqual([]);
    // The time range: [from, to).
    const first = all.list.at(-1)!.at;
    expect((await a.logs({ to: first })).total).toBe(0);
    expect((await a.logs({ from: first, to: first + 1 })).list.length).toBeGreaterThanOrEqual(1);
    // The default page size is SPEC §9's 5.
    syncClock();
    const plain = await h.call('hub_getApiKeyRequestLogs', { keyId: a.key.keyId }, a);
    expect(plain.ok && plain.result.list.length).toBe(5);
  });

  it('shows the gateway’s own refusals with their code: rate limit and not allowed', async () => {
    const a = await accountWithKey();
    const updated = await h.call(
      'hub_updateApiKey',
      { keyId: a.key.keyId, allowlists: { methods: ['eth_chainId'] } },
      { token: a.token },
    );
    expect(updated.ok).toBe(true);
    const url = `${gw.url}/v1/localnet/${a.key.key}`;
    expect((await post(url, rpc('eth_blockNumber'))).status).toBe(403);
    // Two full batches at once: the free tier's bucket holds one second (20 calls), so one batch is refused whole.
    const full = Array.from({ length: 20 }, (_, i) => rpc('eth_chainId', [], i));
    const answers = await Promise.all([post(url, full), post(url, full)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 429]);
    await gw.gateway.flushUsage();

    const refused = await a.logs({ outcome: 'refused' });
    const codes = new Map<string, number>();
    for (const e of refused.list)
      codes.set(`${e.method} ${e.errorCode}`, (codes.get(`${e.method} ${e.errorCode}`) ?? 0) + 1);
    expect(Object.fromEntries(codes)).toEqual({
      'eth_blockNumber -32004': 1,
      'eth_chainId -32005': 20,
    });
    expect((await a.logs({ outcome: 'ok' })).total).toBe(20);
  });

  it('counts what the gateway did not keep, per key, and says so', async () => {
    const a = await accountWithKey();
    const small = await startDbGateway({
      deps: h.server.deps,
      port: 0,
      host: '127.0.0.1',
      flushIntervalMs: 60_000,
      healthCheckIntervalMs: 60_000,
      refreshIntervalMs: 60_000,
      requestLog: { maxPerKey: 2 },
    });
    try {
      const url = `${small.url}/v1/localnet/${a.key.key}`;
      for (let i = 0; i < 5; i++) expect((await post(url, rpc('eth_chainId'))).status).toBe(200);
      await small.gateway.flushUsage();
    } finally {
      await small.stop();
    }
    const got = await a.logs();
    expect(got.total).toBe(2);
    expect(got.dropped).toBe(3);
    // A range before the calls: nothing kept, nothing dropped.
    expect((await a.logs({ to: Date.now() - HOUR })).dropped).toBe(0);
  });

  it('answers 50404 for a key of another account, a deleted key or no key, and shows nothing', async () => {
    const a = await accountWithKey();
    const b = await accountWithKey();
    expect((await post(`${gw.url}/v1/localnet/${b.key.key}`, rpc('eth_chainId'))).status).toBe(200);
    await gw.gateway.flushUsage();
    expect((await b.logs()).total).toBe(1);
    for (const keyId of [b.key.keyId, randomUUID()]) {
      const res = await h.call('hub_getApiKeyRequestLogs', { keyId }, { token: a.token });
      expect(res.ok ? 'ok' : res.error.code).toBe(ERROR_CODES.NOT_FOUND);
      expect(JSON.stringify(res)).not.toContain('eth_chainId');
    }
    const del = await h.call('hub_deleteApiKey', { keyId: b.key.keyId }, { token: b.token });
    expect(del.ok).toBe(true);
    const gone = await h.call('hub_getApiKeyRequestLogs', { keyId: b.key.keyId }, b);
    expect(gone.ok ? 'ok' : gone.error.code).toBe(ERROR_CODES.NOT_FOUND);
  });

  it('refuses bad input with 10004 and writes nothing', async () => {
    const a = await accountWithKey();
    const keyId = a.key.keyId;
    const rows = async () => (await db.select({ n: count() }).from(requestLogWindows))[0]!.n;
    const before = await rows();
    // Params that are not an object at all fail the envelope (10002) before the method's schema.
    for (const params of ['keyId', 42, true]) {
      const res = await h.raw({ method: 'hub_getApiKeyRequestLogs', params, id: 1 }, a);
      expect(res.error?.code, JSON.stringify(params)).toBe(ERROR_CODES.INVALID_REQUEST);
    }
    const cases: unknown[] = [
      undefined,
      {},
      [],
      { keyId: 'not-a-uuid' },
      { keyId: 42 },
      { keyId: { $ne: null } },
      { keyId, page: -1 },
      { keyId, page: 0 },
      { keyId, page: '1' },
      { keyId, page: 1.5 },
      { keyId, perPage: 101 },
      { keyId, perPage: 0 },
      { keyId, method: 'x'.repeat(65) },
      { keyId, method: 'eth\u0007call' },
      { keyId, method: 'eth\u0000call' },
      { keyId, method: ['eth_call'] },
      { keyId, outcome: 'bogus' },
      { keyId, outcome: 'ERRORS' },
      { keyId, from: -1 },
      { keyId, from: 10, to: 10 },
      { keyId, from: 20, to: 10 },
      { keyId, to: 'yesterday' },
      { keyId, from: 1e300 },
    ];
    for (const params of cases) {
      const res = await h.raw({ method: 'hub_getApiKeyRequestLogs', params, id: 1 }, a);
      expect(res.error?.code, JSON.stringify(params)).toBe(ERROR_CODES.INVALID_PARAMS);
    }
    expect(await rows()).toBe(before);
  });

  it('matches SQL wildcards in the method search literally', async () => {
    const a = await accountWithKey();
    const now = Date.now();
    const entry = (method: string, i: number): TRequestLogEntry => ({
      at: now - i,
      accountId: a.accountId,
      keyId: a.key.keyId,
      chain: 'localnet',
      method,
      transport: 'http',
      outcome: 'refused',
      errorCode: -32601,
      latencyMs: 0,
      ru: 0,
    });
    const methods = ['weird%method', 'weird_method', 'weirdXmethod', 'weird\\method'];
    await writeRequestLogBatch(db, {
      batchId: randomUUID(),
      createdAt: now,
      entries: methods.map(entry),
      dropped: [],
    });
    const found = async (method: string) => (await a.logs({ method })).list.map((e) => e.method);
    expect(await found('d%m')).toEqual(['weird%method']);
    expect(await found('d_m')).toEqual(['weird_method']);
    expect(await found('d\\m')).toEqual(['weird\\method']);
    expect(await found('%')).toEqual(['weird%method']);
    expect((await found('WEIRD')).sort()).toEqual([...methods].sort());
    expect(await found("'; drop table request_log_windows; --")).toEqual([]);
    expect((await a.logs()).total).toBe(4);
  });

  it('writes a batch once: a retry after a lost acknowledgement adds no entries and no drop counts', async () => {
    const a = await accountWithKey();
    const now = Date.now();
    const batch = {
      batchId: randomUUID(),
      createdAt: now,
      entries: [0, 1, 2].map((i) => ({
        at: now - i,
        accountId: a.accountId,
        keyId: a.key.keyId,
        chain: 'localnet',
        method: `eth_retry${i}`,
        transport: 'http' as const,
        outcome: 'ok' as const,
        errorCode: null,
        latencyMs: 1,
        ru: 10,
      })),
      dropped: [
        { accountId: a.accountId, keyId: a.key.keyId, minute: now - (now % 60_000), count: 4 },
      ],
    };
    expect(await writeRequestLogBatch(db, batch)).toEqual({ entries: 3, dropped: 4 });
    expect(await writeRequestLogBatch(db, batch)).toEqual({ entries: 0, dropped: 0 });
    const logs = await a.logs();
    expect(logs.total).toBe(3);
    expect(logs.dropped).toBe(4);
    // Entries come back as the gateway made them: the millisecond, the latency rounded (a half up), the RU.
    const kept = logs.list.find((e) => e.method === 'eth_retry1');
    expect(kept).toMatchObject({
      at: now - 1,
      latencyMs: 1,
      ru: 10,
      outcome: 'ok',
      errorCode: null,
    });
    // Another batch with the same contents is new calls, and counts (the drop counter is added to). An entry
    // of a key the database does not hold (deleted since the call) is left out, not the batch failed.
    const gone = randomUUID();
    expect(
      await writeRequestLogBatch(db, {
        ...batch,
        batchId: randomUUID(),
        entries: [
          ...batch.entries.map((e) => ({ ...e, latencyMs: 2.5 })),
          { ...batch.entries[0]!, keyId: gone },
        ],
        dropped: [...batch.dropped, { ...batch.dropped[0]!, keyId: gone }],
      }),
    ).toEqual({ entries: 3, dropped: 4 });
    const again = await a.logs();
    expect(again.total).toBe(6);
    expect(again.dropped).toBe(8);
    expect(
      again.list
        .filter((e) => e.method === 'eth_retry1')
        .map((e) => e.latencyMs)
        .sort(),
    ).toEqual([1, 3]);
  });

  it('keeps the bounds: retention and the newest entries per key, in answers and after an idempotent prune', async () => {
    const a = await accountWithKey();
    const b = await accountWithKey();
    const now = Date.now();
    const base = {
      chain: 'localnet',
      transport: 'http' as const,
      outcome: 'ok' as const,
      errorCode: null,
      latencyMs: 1,
      ru: 10,
    };
    const old = (who: typeof a, i: number): TRequestLogEntry => ({
      ...base,
      at: now - 73 * HOUR - i,
      accountId: who.accountId,
      keyId: who.key.keyId,
      method: 'eth_old',
    });
    const fresh = (who: typeof a, i: number): TRequestLogEntry => ({
      ...base,
      at: now - 1000 + i,
      accountId: who.accountId,
      keyId: who.key.keyId,
      method: `eth_new${i}`,
    });
    const over = REQUEST_LOG_MAX_ROWS_PER_KEY + 5;
    await writeRequestLogBatch(db, {
      batchId: randomUUID(),
      createdAt: now,
      entries: [
        ...Array.from({ length: 3 }, (_, i) => old(a, i)),
        ...Array.from({ length: over }, (_, i) => fresh(a, i)),
        ...Array.from({ length: 2 }, (_, i) => old(b, i)),
        ...Array.from({ length: 4 }, (_, i) => fresh(b, i)),
      ],
      dropped: [
        { accountId: a.accountId, keyId: a.key.keyId, minute: now - (now % 60_000), count: 7 },
        {
          accountId: a.accountId,
          keyId: a.key.keyId,
          minute: now - 80 * HOUR - (now % 60_000),
          count: 9,
        },
      ],
    });
    // Before any prune the answers already keep the bounds.
    const la = await a.logs({ perPage: 1 });
    expect(la.total).toBe(REQUEST_LOG_MAX_ROWS_PER_KEY);
    expect(la.list[0]!.method).toBe(`eth_new${over - 1}`);
    expect(la.dropped).toBe(7);
    expect((await b.logs()).total).toBe(4);

    const ofKey = async (keyId: string) =>
      Number(
        (
          await db
            .select({ n: sum(requestLogWindows.n) })
            .from(requestLogWindows)
            .where(eq(requestLogWindows.keyId, keyId))
        )[0]!.n ?? 0,
      );
    expect(await ofKey(a.key.keyId)).toBe(3 + over);
    const pruned = await pruneRequestLogs({ db, now, retentionHours: 72, chunkSize: 2 });
    expect(pruned.expired).toBe(5);
    expect(pruned.overflow).toBe(5);
    expect(pruned.drops).toBeGreaterThanOrEqual(1);
    expect(await ofKey(a.key.keyId)).toBe(REQUEST_LOG_MAX_ROWS_PER_KEY);
    expect(await ofKey(b.key.keyId)).toBe(4);
    const newest = (
      await db
        .select({ entries: requestLogWindows.entries })
        .from(requestLogWindows)
        .where(eq(requestLogWindows.keyId, a.key.keyId))
    ).flatMap((w) => w.entries.map((e) => e[2]));
    // The five oldest of the fresh ones went, the newest stayed.
    expect(newest).not.toContain('eth_new4');
    expect(newest).toContain('eth_new5');
    expect(newest).toHaveLength(REQUEST_LOG_MAX_ROWS_PER_KEY);
    const drops = await db
      .select({ count: requestLogDrops.count })
      .from(requestLogDrops)
      .where(eq(requestLogDrops.keyId, a.key.keyId));
    expect(drops.map((d) => d.count)).toEqual([7]);
    // Idempotent: a second pass finds nothing to do.
    expect(await pruneRequestLogs({ db, now, retentionHours: 72 })).toEqual({
      expired: 0,
      overflow: 0,
      drops: 0,
    });
    expect((await a.logs({ perPage: 1 })).total).toBe(REQUEST_LOG_MAX_ROWS_PER_KEY);
  });
});
