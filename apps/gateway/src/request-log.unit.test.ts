import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadChains } from './chains';
import type { TGatewayContext } from './context';
import { DedicatedRoutes, emptyDnStore } from './dedicated';
import { FilterOwners } from './filter-owners';
import { createHttpHandler } from './http-handler';
import { MemoryKeyStore } from './key-cache';
import { KeyLimiter } from './limits';
import { defaultRuTable } from './metering';
import { createCallPolicy } from './method-policy';
import { createGatewayMetrics } from './metrics';
import { RuBudget } from './budget';
import { errorCodeOfBody, errorCodeOfObject, RequestLog } from './request-log';
import type { TRequestLogBatch, TRequestLogEntry } from './types';
import type { UpstreamSet } from './upstreams';
import { UpstreamGroup } from './upstreams';
import { MemoryUsageSink, UsageAggregator } from './usage';

const T = Date.UTC(2026, 10, 20, 10, 0, 30);

function entry(keyId: string, at = T, over: Partial<TRequestLogEntry> = {}): TRequestLogEntry {
  return {
    at,
    accountId: `acct-${keyId}`,
    keyId,
    chain: 'localnet',
    method: 'eth_blockNumber',
    transport: 'http',
    outcome: 'ok',
    errorCode: null,
    latencyMs: 3,
    ru: 10,
    ...over,
  };
}

describe('RequestLog buffer', () => {
  it('keeps at most maxPerKey entries of one key per window and counts the rest per key and minute', async () => {
    const written: TRequestLogBatch[] = [];
    const log = new RequestLog({ write: async (b) => void written.push(b), maxPerKey: 3 });
    for (let i = 0; i < 5; i++) log.add(entry('k1', T + i));
    log.add(entry('k1', T + 60_000)); // next minute, still over the cap
    log.add(entry('k1', T + 5)); // back in the first minute (calls settle out of order): the same counter
    log.add(entry('k2'));
    expect(log.accepts('k1')).toBe(false);
    expect(log.accepts('k2')).toBe(true);
    expect(log.size).toBe(4);
    expect(log.dropped).toBe(4);
    await log.flush();
    expect(written).toHaveLength(1);
    const b = written[0]!;
    expect(b.entries.map((e) => e.keyId)).toEqual(['k1', 'k1', 'k1', 'k2']);
    expect(b.dropped).toEqual([
      { accountId: 'acct-k1', keyId: 'k1', minute: T - 30_000, count: 3 },
      { accountId: 'acct-k1', keyId: 'k1', minute: T + 30_000, count: 1 },
    ]);
    // A new window: the key's cap starts again, the drop counts are not written twice.
    log.add(entry('k1'));
    await log.flush();
    expect(written).toHaveLength(2);
    expect(written[1]!.entries).toHaveLength(1);
    expect(written[1]!.dropped).toEqual([]);
    await log.flush();
    expect(written).toHaveLength(2); // nothing held, nothing written
  });

  it('keeps at most maxEntries in all per window, whatever the keys', async () => {
    const written: TRequestLogBatch[] = [];
    const log = new RequestLog({
      write: async (b) => void written.push(b),
      maxPerKey: 100,
      maxEntries: 4,
    });
    for (let k = 0; k < 6; k++) log.add(entry(`k${k}`));
    expect(log.size).toBe(4);
    await log.flush();
    expect(written[0]!.entries.map((e) => e.keyId)).toEqual(['k0', 'k1', 'k2', 'k3']);
    expect(written[0]!.dropped.map((d) => [d.keyId, d.count])).toEqual([
      ['k4', 1],
      ['k5', 1],
    ]);
  });

  it('retries a failed batch, and loses the oldest beyond maxPendingBatches', async () => {
    let failing = true;
    const written: TRequestLogBatch[] = [];
    const log = new RequestLog({
      write: async (b) => {
        if (failing) throw new Error('db down');
        written.push(b);
      },
      maxPendingBatches: 2,
    });
    for (let i = 0; i < 3; i++) {
      log.add(entry('k1', T, { method: `m${i}` }));
      await expect(log.flush()).rejects.toThrow('db down');
    }
    expect(log.lost).toBe(1);
    failing = false;
    await log.flush();
    expect(written.flatMap((b) => b.entries.map((e) => e.method))).toEqual(['m1', 'm2']);
  });
});

describe('error codes', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"x"}}', -32000],
    ['{"jsonrpc":"2.0","id":1,"error":{"message":"reverted","code": 3}}', 3],
    ['{"jsonrpc":"2.0","id":1,"error": { "code" :\n -32602 }}', -32602],
    ['{"jsonrpc":"2.0","id":1,"error":{"message":"no code"}}', null],
    ['<html>bad gateway</html>', null],
    ['{"error":{"code":99999999999}}', null],
    ['{"error":{"code":"-1"}}', null],
    // the ends of a 32-bit integer, and one past each
    ['{"error":{"code":-2147483648}}', -2147483648],
    ['{"error":{"code":2147483647}}', 2147483647],
    ['{"error":{"code":-2147483649}}', null],
    ['{"error":{"code":2147483648}}', null],
  ])('errorCodeOfBody(%s) = %s', (body, code) => {
    expect(errorCodeOfBody(Buffer.from(body))).toBe(code);
  });

  it.each([
    [{ code: -32000 }, -32000],
    [{ code: 1.5 }, null],
    [{ code: 2 ** 40 }, null],
    [{ code: -(2 ** 31) }, -(2 ** 31)],
    [{ code: 2 ** 31 - 1 }, 2 ** 31 - 1],
    [{ code: -(2 ** 31) - 1 }, null],
    [{ code: 2 ** 31 }, null],
    ['boom', null],
    [null, null],
    [undefined, null],
  ])('errorCodeOfObject(%j) = %s', (err, code) => {
    expect(errorCodeOfObject(err)).toBe(code);
  });
});

/** The real HTTP handler with stand-in request/response objects and an upstream that answers at once. */
function harness(reply: (body: string) => string | null) {
  const chains = loadChains({});
  const empty = () => new UpstreamGroup('x', []);
  const full = new UpstreamGroup('full', []);
  const answer = (body: unknown) => {
    const text = reply(String(body));
    // null: no node answered
    return text === null ? undefined : { status: 200, body: Buffer.from(text), upstream: 'stub' };
  };
  const upstreams = {
    chains: new Map(
      chains.map((c) => [
        c.id,
        {
          full,
          archive: empty(),
          mev: empty(),
          bundler: {
            default: empty(),
            stackup: empty(),
            candide: empty(),
            pimlico: empty(),
            etherspot: empty(),
          },
          ws: [],
          head: 1000,
        },
      ]),
    ),
    send: async (_g: unknown, body: unknown) => answer(body),
    sendTo: (_g: unknown, body: unknown, _quick: boolean, done: (r: unknown) => void) =>
      done(answer(body)),
  } as unknown as UpstreamSet;
  const chainMap = new Map(chains.map((c) => [c.id, { ...c, available: true }]));
  const written: TRequestLogBatch[] = [];
  const requestLog = new RequestLog({ write: async (b) => void written.push(b) });
  const ctx: TGatewayContext = {
    chains: chainMap,
    dedicated: new DedicatedRoutes(emptyDnStore, upstreams, chainMap),
    keys: new MemoryKeyStore([
      {
        key: 'test-key',
        keyId: 'key-1',
        accountId: 'acct-1',
        paused: false,
        archiveMode: false,
        mev: '',
        bundler: 'default',
        allowlists: { origins: [], ips: [], contracts: [], methods: [] },
        tier: { reqPerSec: 1000, ruPerSec: 1e9, concurrency: 100 },
      },
    ]),
    balance: new RuBudget([['acct-1', 1e12]]),
    upstreams,
    limiter: new KeyLimiter(),
    metrics: createGatewayMetrics({ ruTable: defaultRuTable, chains: chains.map((c) => c.id) }),
    usage: new UsageAggregator({ sink: new MemoryUsageSink(), ruTableVersion: 'x' }),
    requestLog,
    ruTable: defaultRuTable,
    notifyPaused: () => {},
    policy: createCallPolicy(defaultRuTable),
    filters: new FilterOwners(),
    maxBodyBytes: 1024 * 1024,
    maxBatch: 100,
    trustProxy: 0,
  };
  const handler = createHttpHandler(ctx);
  const post = (path: string, body: string) =>
    new Promise<string>((resolve) => {
      const req = new EventEmitter() as EventEmitter & Record<string, unknown>;
      req.url = path;
      req.method = 'POST';
      req.headers = { 'content-type': 'application/json' };
      req.socket = { remoteAddress: '127.0.0.1' };
      req.resume = () => {};
      const res = {
        headersSent: false,
        writeHead: () => res,
        end: (b: unknown) => resolve(String(b)),
        destroy: () => {},
      };
      handler(req as unknown as IncomingMessage, res as unknown as ServerResponse);
      req.emit('data', Buffer.from(body));
      req.emit('end');
    });
  const entries = async () => {
    await requestLog.flush();
    return written.flatMap((b) => b.entries);
  };
  return { post, entries };
}

describe('what the HTTP path logs', () => {
  const SECRET_PARAM = '0xfeedfacefeedfacefeedfacefeedfacefeedface';
  const SECRET_RESULT = '0xdeadbeefcafe';

  it('one entry per call with outcome, code and RU, and never params or results', async () => {
    const h = harness((body) => {
      const parsed = JSON.parse(body) as { id: unknown; method: string } | { id: unknown }[];
      const one = (c: { id: unknown; method?: string }) =>
        c.method === 'eth_call'
          ? { jsonrpc: '2.0', id: c.id, error: { code: 3, message: 'execution reverted' } }
          : { jsonrpc: '2.0', id: c.id, result: SECRET_RESULT };
      return JSON.stringify(Array.isArray(parsed) ? parsed.map(one) : one(parsed));
    });
    await h.post(
      '/v1/localnet/test-key',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getBalance',
        params: [SECRET_PARAM, 'latest'],
      }),
    );
    await h.post(
      '/v1/localnet/test-key',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'eth_call',
        params: [{ to: SECRET_PARAM }, 'latest'],
      }),
    );
    await h.post(
      '/v1/localnet/test-key',
      JSON.stringify([
        { jsonrpc: '2.0', id: 3, method: 'eth_blockNumber' },
        { jsonrpc: '2.0', id: 4, method: 'eth_call', params: [{ to: SECRET_PARAM }, 'latest'] },
        { jsonrpc: '2.0', id: 5, method: 'admin_peers' },
        { jsonrpc: '2.0', id: 6 },
      ]),
    );
    await h.post('/v1/localnet/test-key', '{not json');
    await h.post(
      '/v1/localnet/no-such-key',
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId' }),
    );

    const got = await h.entries();
    const brief = got.map((e) => [e.method, e.outcome, e.errorCode]);
    expect(brief).toEqual([
      ['eth_getBalance', 'ok', null],
      ['eth_call', 'rpc_error', 3],
      // The batch: refusals are logged as they are found, answers as they come back.
      ['admin_peers', 'refused', -32601],
      ['', 'refused', -32600],
      ['eth_blockNumber', 'ok', null],
      ['eth_call', 'rpc_error', 3],
      // The bad body of a known key; the unknown key is in no key's log.
      ['', 'refused', -32700],
    ]);
    for (const e of got) {
      expect(e).toMatchObject({
        accountId: 'acct-1',
        keyId: 'key-1',
        chain: 'localnet',
        transport: 'http',
      });
      expect(Number.isInteger(e.latencyMs)).toBe(true);
    }
    expect(got[0]!.ru).toBeGreaterThan(0);
    expect(got[2]!.ru).toBe(0);
    const text = JSON.stringify(got);
    expect(text).not.toContain(SECRET_PARAM.slice(2));
    expect(text).not.toContain(SECRET_RESULT.slice(2));
    expect(text).not.toContain('execution reverted');
    expect(Object.keys(got[0]!).sort()).toEqual([
      'accountId',
      'at',
      'chain',
      'errorCode',
      'keyId',
      'latencyMs',
      'method',
      'outcome',
      'ru',
      'transport',
    ]);
  });

  it('logs a call no node answered as upstream_failed with -32010 and no RU', async () => {
    const h = harness(() => null);
    await h.post(
      '/v1/localnet/test-key',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }),
    );
    const [e] = await h.entries();
    expect(e).toMatchObject({
      method: 'eth_chainId',
      outcome: 'upstream_failed',
      errorCode: -32010,
      ru: 0,
    });
  });

  it('keeps only the start of a long made-up method name', async () => {
    const h = harness(() => '{"jsonrpc":"2.0","id":1,"result":"0x1"}');
    await h.post(
      '/v1/localnet/test-key',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x'.repeat(5000) }),
    );
    const [e] = await h.entries();
    expect(e).toMatchObject({ outcome: 'refused', errorCode: -32601 });
    expect(e!.method).toBe('x'.repeat(100));
  });
});
