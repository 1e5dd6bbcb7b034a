// The gateway against a real Hardhat node: serving, metering, limits, routing, invalidation and bad input.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Transaction, weigwei } from 'micro-eth-signer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { TChain } from '../src/chains';
import { loadChains, withUpstreams } from '../src/chains';
import { CachedKeyStore, MemoryInvalidationChannel } from '../src/key-cache';
import type { TLocalnet } from '../src/localnet';
import { startLocalnet } from '../src/localnet';
import { KeyLimiter } from '../src/limits';
import { RawHttpClient } from '../src/raw-http-client';
import { computeRu } from '../src/metering';
import type { TGateway, TGatewayOptions } from '../src/server';
import { pipelineFromEnv, startGateway } from '../src/server';
import { getTier } from '../src/tiers';
import type { TKeyInfo, TServicePausedEvent } from '../src/types';
import { UpstreamSet } from '../src/upstreams';
import { MemoryUsageSink } from '../src/usage';
import type { TCountingProxy } from './helpers';
import { call, freePort, makeKey, rpc, sleep, startCountingProxy } from './helpers';

// Hardhat's first default account (public test key, holds 10,000 ETH on every fresh node).
const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const ACCOUNT0_PK = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ACCOUNT1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

let ln: TLocalnet;
let gw: TGateway;
/** What `gw` was started with, for a test that needs a second gateway like it. */
let gwOptions: TGatewayOptions;
let archive: TCountingProxy;
let mev: TCountingProxy;
let bundler: TCountingProxy;
let slow: TCountingProxy;
const sink = new MemoryUsageSink();
const db = new Map<string, TKeyInfo>(); // stands in for the api_keys table
const channel = new MemoryInvalidationChannel();
const keys = new CachedKeyStore(
  {
    loadAll: async () => [...db.values()],
    loadOne: async (keyId) => db.get(keyId),
  },
  channel,
);
const outOfRu = new Set<string>();
const consumed = new Map<string, number>();
const notices: TServicePausedEvent[] = [];

async function addKey(overrides: Partial<TKeyInfo> = {}): Promise<TKeyInfo> {
  const k = makeKey(overrides);
  db.set(k.keyId, k);
  await channel.publish(k.keyId);
  await sleep(5);
  return k;
}

const endpoint = (k: TKeyInfo, chain = 'localnet') => `${gw.url}/v1/${chain}/${k.key}`;

/** Usage of one key per method, after a flush of `g`. */
async function usageOf(k: TKeyInfo, g: TGateway = gw) {
  await g.flushUsage();
  const out: Record<string, { requests: number; ru: number; errors: number }> = {};
  for (const r of sink.rows.filter((r) => r.keyId === k.keyId)) {
    const t = (out[r.method] ??= { requests: 0, ru: 0, errors: 0 });
    t.requests += r.requests;
    t.ru += r.ru;
    t.errors += r.errors;
  }
  return out;
}

async function direct(method: string, params: unknown[] = []) {
  return (await rpc(ln.url, call(method, params))).body as { result: unknown };
}

beforeAll(async () => {
  ln = await startLocalnet({ port: await freePort() });
  [archive, mev, bundler, slow] = await Promise.all([
    startCountingProxy(ln.url),
    startCountingProxy(ln.url),
    startCountingProxy(ln.url),
    startCountingProxy(ln.url, 300),
  ]);
  const base = loadChains({});
  const localnet = base.find((c) => c.id === 'localnet')!;
  // A chain whose only upstream answers after 300 ms, to hold calls in flight.
  const slowChain: TChain = { ...withUpstreams(localnet, { full: [slow.url] }, []), id: 'slownet' };
  const chains: TChain[] = [slowChain, ...base].map((c) =>
    c.id === 'localnet'
      ? withUpstreams(
          c,
          {
            // A dead first member: every call must fail over to the live node.
            full: ['http://127.0.0.1:9', ln.url],
            archive: [archive.url],
            mev: [mev.url],
            bundler: { ...c.http.bundler, default: [bundler.url] },
          },
          [ln.wsUrl],
        )
      : c,
  );
  await keys.start();
  gwOptions = {
    port: 0,
    host: '127.0.0.1',
    keys,
    chains,
    usageSink: sink,
    balance: {
      hasRu: (a) => !outOfRu.has(a),
      reserve: (a) => !outOfRu.has(a),
      settle: (a, _held, ru) => {
        if (ru !== 0) consumed.set(a, (consumed.get(a) ?? 0) + ru);
      },
    },
    notify: (e) => notices.push(e),
    flushIntervalMs: 60_000,
    healthCheckIntervalMs: 500,
    maxBatch: 10,
    maxBodyBytes: 64 * 1024,
    upstreamTimeoutMs: 2000,
  };
  gw = await startGateway(gwOptions);
});

afterAll(async () => {
  await gw?.stop();
  keys.stop();
  await Promise.all([archive?.close(), mev?.close(), bundler?.close(), slow?.close()]);
  await ln?.stop();
});

describe('serving JSON-RPC from the Hardhat upstream', () => {
  it('eth_blockNumber, eth_getBalance and a batch, each metered exactly by the table', async () => {
    const k = await addKey();
    const bn = await rpc(endpoint(k), call('eth_blockNumber'));
    expect(bn.status).toBe(200);
    expect(bn.body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: (await direct('eth_blockNumber')).result,
    });

    const bal = await rpc(endpoint(k), call('eth_getBalance', [ACCOUNT1, 'latest'], 'b'));
    expect(bal.body).toEqual({ jsonrpc: '2.0', id: 'b', result: '0x21e19e0c9bab2400000' });

    const batch = await rpc(endpoint(k), [
      call('eth_chainId', [], 1),
      call('eth_blockNumber', [], 1), // duplicate ids are the caller's business; the answers keep order
      call('eth_getBalance', [ACCOUNT1, 'latest'], 'x'),
      { jsonrpc: '2.0', method: 'eth_chainId', params: [] }, // a notification: no answer
    ]);
    expect(batch.status).toBe(200);
    const items = batch.body as { id: unknown; result: unknown }[];
    expect(items.map((i) => [i.id, i.result])).toEqual([
      [1, '0x7a69'],
      [1, (await direct('eth_blockNumber')).result],
      ['x', '0x21e19e0c9bab2400000'],
    ]);

    const usage = await usageOf(k);
    expect(usage).toEqual({
      eth_blockNumber: { requests: 2, ru: 20, errors: 0 },
      eth_getBalance: { requests: 2, ru: 30, errors: 0 },
      eth_chainId: { requests: 2, ru: 10, errors: 0 },
    });
    expect(consumed.get(k.accountId)).toBe(60);
    const row = sink.rows.find((r) => r.keyId === k.keyId);
    expect(row).toMatchObject({ accountId: k.accountId, chain: 'localnet' });
    expect(row!.minute % 60_000).toBe(0);
  });

  it('sends a signed transaction and reads its receipt back', async () => {
    const k = await addKey();
    const nonceHex = (
      (await rpc(endpoint(k), call('eth_getTransactionCount', [ACCOUNT0, 'pending']))).body as {
        result: string;
      }
    ).result;
    const tx = Transaction.prepare({
      to: ACCOUNT1,
      value: 12345n,
      maxFeePerGas: weigwei.decode('100'),
      nonce: BigInt(nonceHex),
      chainId: 31337n,
    }).signBy(ACCOUNT0_PK);
    const sent = await rpc(endpoint(k), call('eth_sendRawTransaction', [tx.toHex()]));
    expect(sent.status).toBe(200);
    const hash = (sent.body as { result: string }).result;
    expect(hash).toBe(tx.hash.startsWith('0x') ? tx.hash : `0x${tx.hash}`);
    const receipt = await rpc(endpoint(k), call('eth_getTransactionReceipt', [hash]));
    const r = (receipt.body as { result: { status: string; from: string; to: string } }).result;
    expect(r).toMatchObject({ status: '0x1', from: ACCOUNT0, to: ACCOUNT1 });

    expect(await usageOf(k)).toEqual({
      eth_getTransactionCount: { requests: 1, ru: 15, errors: 0 },
      eth_sendRawTransaction: { requests: 1, ru: 200, errors: 0 },
      eth_getTransactionReceipt: { requests: 1, ru: 15, errors: 0 },
    });
  });

  it('node-admin and unlisted methods never reach the node and cost nothing; upstream errors cost nothing', async () => {
    const k = await addKey();
    const before = await direct('eth_getBalance', [ACCOUNT1, 'latest']);
    const refused = [
      call('hardhat_setBalance', [ACCOUNT1, '0x1']),
      call('hardhat_reset', []),
      call('evm_mine', []),
      call('debug_setHead', ['0x0']),
      call('admin_peers', []),
      call('personal_unlockAccount', [ACCOUNT0, '', 0]),
      call('miner_start', []),
      call('eth_sendTransaction', [{ from: ACCOUNT0, to: ACCOUNT1, value: '0x1' }]),
      call('hardhat_metadata', []),
      call('no_suchMethod', []),
    ];
    const blockBefore = await direct('eth_blockNumber');
    for (const c of refused) {
      const r = await rpc(endpoint(k), c);
      expect(r.status, c.method).toBe(400);
      expect((r.body as { error: { code: number } }).error.code, c.method).toBe(-32601);
    }
    // Also inside a batch: answered in place, never forwarded.
    const batch = await rpc(endpoint(k), [call('hardhat_setBalance', [ACCOUNT1, '0x1'], 1)]);
    expect((batch.body as { error: { code: number } }[])[0]?.error.code).toBe(-32601);
    expect(await direct('eth_getBalance', [ACCOUNT1, 'latest'])).toEqual(before);
    expect(await direct('eth_blockNumber')).toEqual(blockBefore);

    const failed = await rpc(
      endpoint(k),
      call('eth_call', [{ to: ACCOUNT1, data: '0x12' }, 'pending-nonsense']),
    );
    expect((failed.body as { error?: unknown }).error).toBeDefined();
    const usage = await usageOf(k);
    expect(usage).toEqual({ eth_call: { requests: 1, ru: 0, errors: 1 } });
  });

  it('gzip: a gzipped request is read and a large response is gzipped', async () => {
    const k = await addKey();
    const batch = Array.from({ length: 10 }, (_, i) =>
      call('eth_getBlockByNumber', ['0x0', false], i),
    );
    const res = await fetch(endpoint(k), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'accept-encoding': 'gzip',
      },
      body: gzipSync(JSON.stringify(batch)),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const items = (await res.json()) as { id: number; result: string }[];
    expect(items).toHaveLength(10);
    expect(items[9]).toMatchObject({ id: 9, result: { number: '0x0' } });
    expect((await usageOf(k)).eth_getBlockByNumber).toEqual({ requests: 10, ru: 200, errors: 0 });
  });

  it('CORS honours the origin allowlist, preflight included', async () => {
    const k = await addKey({
      allowlists: { origins: ['https://app.example.com'], ips: [], contracts: [], methods: [] },
    });
    const ok = await fetch(endpoint(k), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
    // A fixed list, never a reflection of what the page asked for.
    const asking = await fetch(endpoint(k), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-evil, authorization, cookie',
      },
    });
    expect(asking.headers.get('access-control-allow-headers')).toBe(
      'content-type, content-encoding',
    );
    const bad = await fetch(endpoint(k), {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example' },
    });
    expect(bad.status).toBe(403);
    expect(bad.headers.get('access-control-allow-origin')).toBeNull();
    const post = await rpc(endpoint(k), call('eth_chainId'), { origin: 'https://app.example.com' });
    expect(post.status).toBe(200);
    expect(post.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const noOrigin = await rpc(endpoint(k), call('eth_chainId')); // server-to-server calls carry no Origin
    expect(noOrigin.status).toBe(200);
  });
});

describe('routing', () => {
  it('archive mode sends historical reads to the archive group (+30% RU), recent ones to full nodes', async () => {
    await direct('hardhat_mine', ['0x100']);
    await gw.checkUpstreams();
    const k = await addKey({ archiveMode: true });
    const plain = await addKey();
    archive.hits.length = 0;
    const old = await rpc(endpoint(k), call('eth_getBalance', [ACCOUNT1, '0x0']));
    expect((old.body as { result: string }).result).toBe('0x21e19e0c9bab2400000');
    expect(archive.hits).toEqual(['eth_getBalance']);
    await rpc(endpoint(k), call('eth_getBalance', [ACCOUNT1, 'latest']));
    await rpc(endpoint(plain), call('eth_getBalance', [ACCOUNT1, '0x0']));
    expect(archive.hits).toEqual(['eth_getBalance']);
    expect((await usageOf(k)).eth_getBalance).toEqual({ requests: 2, ru: 20 + 15, errors: 0 });
  });

  it('MEV protection sends eth_sendRawTransaction to the MEV group', async () => {
    const k = await addKey({ mev: 'auto' });
    mev.hits.length = 0;
    const nonceHex = (
      (await rpc(endpoint(k), call('eth_getTransactionCount', [ACCOUNT0, 'pending']))).body as {
        result: string;
      }
    ).result;
    const tx = Transaction.prepare({
      to: ACCOUNT1,
      value: 1n,
      maxFeePerGas: weigwei.decode('100'),
      nonce: BigInt(nonceHex),
      chainId: 31337n,
    }).signBy(ACCOUNT0_PK);
    const sent = await rpc(endpoint(k), call('eth_sendRawTransaction', [tx.toHex()]));
    expect(sent.status).toBe(200);
    expect(mev.hits).toEqual(['eth_sendRawTransaction']);
  });

  it('ERC-4337 methods go to the key’s bundler provider; a provider the chain lacks is refused', async () => {
    const k = await addKey({ bundler: 'default' });
    bundler.hits.length = 0;
    await rpc(endpoint(k), call('eth_supportedEntryPoints'));
    expect(bundler.hits).toEqual(['eth_supportedEntryPoints']);
    const other = await addKey({ bundler: 'pimlico' });
    const refused = await rpc(endpoint(other), call('eth_supportedEntryPoints'));
    expect(refused.status).toBe(400);
    expect((refused.body as { error: { code: number } }).error.code).toBe(-32601);
    // Hardhat is no bundler: the provider's error is relayed and not charged.
    expect((await usageOf(k)).eth_supportedEntryPoints).toEqual({ requests: 1, ru: 0, errors: 1 });
    expect(await usageOf(other)).toEqual({});
  });

  it('fails over from a hanging upstream after the timeout', async () => {
    const hanging = http.createServer(() => {});
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const hangUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const [localnet] = loadChains({}).filter((c) => c.id === 'localnet');
    const set = new UpstreamSet([withUpstreams(localnet!, { full: [hangUrl, ln.url] })], {
      timeoutMs: 300,
      maxLagBlocks: 10,
      connectionsPerUpstream: 4,
    });
    const group = set.chains.get('localnet')!.full;
    const t0 = Date.now();
    const replies = [];
    for (let i = 0; i < 2; i++)
      replies.push(await set.send(group, JSON.stringify(call('eth_chainId'))));
    expect(replies.map((r) => r?.upstream)).toEqual([ln.url, ln.url]);
    expect(JSON.parse(replies[0]!.body.toString())).toMatchObject({ result: '0x7a69' });
    expect(Date.now() - t0).toBeLessThan(1500);
    await set.close();
    hanging.closeAllConnections();
    await new Promise<void>((r) => hanging.close(() => r()));
  });
});

describe('WebSocket', () => {
  it('relays eth_subscribe newHeads and meters every notification', async () => {
    const k = await addKey();
    const ws = new WebSocket(endpoint(k).replace('http', 'ws'));
    const messages: {
      id?: number | null;
      result?: string;
      method?: string;
      error?: { code: number };
    }[] = [];
    ws.on('message', (d) => messages.push(JSON.parse(d.toString())));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify(call('eth_subscribe', ['newHeads'], 1)));
    const until = async (pred: () => boolean) => {
      for (let i = 0; i < 100 && !pred(); i++) await sleep(50);
      expect(pred()).toBe(true);
    };
    await until(() => messages.some((m) => m.id === 1));
    const subId = messages.find((m) => m.id === 1)!.result!;
    for (let i = 0; i < 3; i++) await direct('evm_mine');
    await until(() => messages.filter((m) => m.method === 'eth_subscription').length === 3);
    ws.send(JSON.stringify(call('eth_unsubscribe', [subId], 2)));
    await until(() => messages.some((m) => m.id === 2));
    ws.send('{not json');
    await until(() => messages.some((m) => m.id === null && m.error?.code === -32700));
    ws.close();
    expect(await usageOf(k)).toEqual({
      eth_subscribe: { requests: 1, ru: 10, errors: 0 },
      eth_subscription: { requests: 3, ru: 30, errors: 0 },
      eth_unsubscribe: { requests: 1, ru: 10, errors: 0 },
    });
  });

  it('refuses the upgrade for an unknown key and closes a live socket once its key is deleted', async () => {
    const refused = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/localnet/nope`);
    const status = await new Promise<number>((resolve) =>
      refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(401);

    const k = await addKey();
    const ws = new WebSocket(endpoint(k).replace('http', 'ws'));
    await new Promise<void>((r) => ws.once('open', () => r()));
    db.delete(k.keyId);
    await channel.publish(k.keyId);
    await sleep(20);
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send(JSON.stringify(call('eth_chainId')));
    expect(await closed).toBe(1008);
  });

  it('a refused upgrade closes its connection for good, to a client that never ends its side or never reads', async () => {
    // The gateway's sockets are half-open ones: an answer sent with end() alone left the socket open until the
    // client ended its side. A client whose side stays open sees the close only by sending: a byte to a socket the
    // gateway has closed draws a reset, one to a half-open socket is taken in silence.
    const upgrade =
      'GET /v1/localnet/nope HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';
    const refused = async (port: number, reads: boolean) => {
      const client = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      // Paused before it connects, a socket never starts reading: the answer stays in its kernel buffer.
      if (!reads) client.pause();
      client.on('error', () => {});
      let answer = '';
      if (reads) client.on('data', (d: Buffer) => (answer += d.toString()));
      const ended = new Promise<void>((r) => client.once('end', () => r()));
      const closed = new Promise<void>((r) => client.once('close', () => r()));
      await new Promise((r) => client.once('connect', r));
      client.write(upgrade);
      // The whole answer and the gateway's FIN first (a reset could cut the answer), then probes.
      if (reads) await ended;
      else await sleep(300);
      const started = Date.now();
      const probe = setInterval(() => client.writable && client.write('x'), 50);
      const sawClose = await Promise.race([closed.then(() => true), sleep(3000).then(() => false)]);
      clearInterval(probe);
      client.destroy();
      return { sawClose, ms: Date.now() - started, answer };
    };
    for (const rawFront of [true, false]) {
      const g = await startGateway({ ...gwOptions, rawFront });
      try {
        const port = Number(new URL(g.url).port);
        const reader = await refused(port, true);
        expect(reader.answer, `rawFront ${rawFront}`).toMatch(/^HTTP\/1\.1 401 /);
        expect(reader.answer).toContain('Connection: close');
        expect(reader.sawClose, `rawFront ${rawFront}`).toBe(true);
        expect(reader.ms).toBeLessThan(2000);
        const deaf = await refused(port, false);
        expect(deaf.sawClose, `rawFront ${rawFront}`).toBe(true);
      } finally {
        // Bounded: a socket left half-open is one node:http no longer tracks, and the stop would wait for it.
        await Promise.race([g.stop(), sleep(7000)]);
      }
    }
  });
});

describe('behind our own proxy (trustProxy)', () => {
  it('takes the address our proxy appended to X-Forwarded-For, never one the client wrote', async () => {
    const ipLocked = await addKey({
      allowlists: { origins: [], ips: ['203.0.113.5'], contracts: [], methods: [] },
    });
    for (const rawFront of [true, false]) {
      for (const [trustProxy, xff, status] of [
        // One proxy: it appended the client's address last.
        [1, '203.0.113.5', 200],
        // The client claimed the allowed address itself; our proxy appended the real one.
        [1, '203.0.113.5, 198.51.100.7', 403],
        [1, '203.0.113.5,198.51.100.7', 403],
        // Two proxies of ours: the outer one appended the client, the inner one the outer's address.
        [2, '203.0.113.5, 10.0.0.2', 200],
        [2, '203.0.113.5, 198.51.100.7, 10.0.0.2', 403],
        // Without trustProxy the header means nothing: the socket's address (127.0.0.1) is checked.
        [0, '203.0.113.5', 403],
        [true, '198.51.100.7, 203.0.113.5', 200],
      ] as const) {
        const g = await startGateway({ ...gwOptions, rawFront, trustProxy });
        try {
          const r = await rpc(`${g.url}/v1/localnet/${ipLocked.key}`, call('eth_chainId'), {
            'x-forwarded-for': xff,
          });
          expect(r.status, JSON.stringify({ rawFront, trustProxy, xff })).toBe(status);
        } finally {
          await g.stop();
        }
      }
    }
  });
});

describe('limits', () => {
  it('the Free tier allows 20 req/s: a one-second burst, then the refill rate', async () => {
    // A gateway whose limiter reads a clock the test moves: a slow machine's pauses refill nothing.
    let now = 0;
    const clocked = await startGateway({ ...gwOptions, limiter: new KeyLimiter(() => now) });
    try {
      const free = getTier('free')!;
      expect(free.reqPerSec).toBe(20);
      const k = await addKey({ tier: free });
      const url = `${clocked.url}/v1/localnet/${k.key}`;
      /** The statuses of `n` calls made one after another at the current clock. */
      const calls = async (n: number) => {
        const statuses: number[] = [];
        for (let i = 0; i < n; i += 1) {
          const r = await rpc(url, call('eth_chainId'));
          statuses.push(r.status);
          if (r.status !== 200) {
            expect(r.status).toBe(429);
            expect((r.body as { error: { code: number } }).error.code).toBe(-32005);
            expect(r.headers.get('retry-after')).toBe('1');
          }
        }
        return statuses;
      };
      const okThen429 = (ok: number) => [...Array<number>(ok).fill(200), 429];

      // A first second's burst: the tier's 20 calls, then refused.
      expect(await calls(21)).toEqual(okThen429(20));
      // Half a second refills half the rate.
      now += 500;
      expect(await calls(11)).toEqual(okThen429(10));
      // A long pause refills one second's burst, never more.
      now += 10_000;
      expect(await calls(21)).toEqual(okThen429(20));
      // Refused calls are not metered.
      expect((await usageOf(k, clocked)).eth_chainId).toEqual({
        requests: 50,
        ru: 50 * 5,
        errors: 0,
      });
    } finally {
      await clocked.stop();
    }
  });

  it('the RU/s bucket refuses once the RUs of one second are spent', async () => {
    const k = await addKey({ tier: { reqPerSec: 1000, ruPerSec: 45, concurrency: 10 } });
    // Sent at once, so the bucket's refill (15 RU every 333 ms) cannot let a slow machine's fourth call through.
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        rpc(endpoint(k), call('eth_getBalance', [ACCOUNT1, 'latest'])),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429]);
    const refused = answers.find((r) => r.status === 429)!;
    expect((refused.body as { error: { message: string } }).error.message).toMatch(
      /45 RU per second/,
    );
  });

  it('the concurrency cap refuses calls beyond the in-flight limit', async () => {
    const k = await addKey({ tier: { reqPerSec: 1000, ruPerSec: 100_000, concurrency: 2 } });
    const many = await Promise.all(
      Array.from({ length: 5 }, () => rpc(endpoint(k, 'slownet'), call('eth_chainId'))),
    );
    const codes = many.map((r) => r.status).sort();
    expect(codes).toEqual([200, 200, 429, 429, 429]);
    const refused = many.find((r) => r.status === 429)!;
    expect((refused.body as { error: { message: string } }).error.message).toMatch(/concurrent/);
    expect(refused.headers.get('retry-after')).toBe('1');
    // Slots are freed when the calls end.
    expect((await rpc(endpoint(k, 'slownet'), call('eth_chainId'))).status).toBe(200);
  });
});

describe('key changes take effect within one second', () => {
  it('a deleted key is refused after invalidation', async () => {
    const k = await addKey();
    expect((await rpc(endpoint(k), call('eth_chainId'))).status).toBe(200);
    db.delete(k.keyId);
    const t0 = performance.now();
    await channel.publish(k.keyId);
    let status = 200;
    while (status === 200 && performance.now() - t0 < 1000)
      status = (await rpc(endpoint(k), call('eth_chainId'))).status;
    expect(status).toBe(401);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('a paused key and a changed allowlist apply after invalidation', async () => {
    const k = await addKey();
    db.set(k.keyId, { ...k, paused: true });
    await channel.publish(k.keyId);
    await sleep(20);
    expect((await rpc(endpoint(k), call('eth_chainId'))).status).toBe(403);
    db.set(k.keyId, { ...k, allowlists: { ...k.allowlists, methods: ['eth_blockNumber'] } });
    await channel.publish(k.keyId);
    await sleep(20);
    expect((await rpc(endpoint(k), call('eth_chainId'))).status).toBe(403);
    expect((await rpc(endpoint(k), call('eth_blockNumber'))).status).toBe(200);
  });
});

describe('upstream pipelining (upstreamPipeline / UPSTREAM_PIPELINE)', () => {
  it('quick reads go up marked quick, at most 8 per write; every call answered with its own result and metered exactly', async () => {
    // Which posts the gateway marks quick (raw-http-client.test.ts shows what the client does with them).
    const posted: { method: string; quick: boolean | undefined }[] = [];
    const original = RawHttpClient.prototype.post;
    const spy = vi.spyOn(RawHttpClient.prototype, 'post').mockImplementation(function (
      this: RawHttpClient,
      path,
      body,
      done,
      quick,
    ) {
      const method = /"method":"(\w+)"/.exec(String(body))?.[1];
      if (method && this.pipelineDepth === 8) posted.push({ method, quick });
      original.call(this, path, body, done, quick);
    });
    // A byte-for-byte TCP tap in front of Hardhat that counts the POSTs arriving in each read.
    const lnPort = Number(new URL(ln.url).port);
    let mostInOneRead = 0;
    const tap = net.createServer((inbound) => {
      const out = net.connect(lnPort, '127.0.0.1');
      inbound.on('data', (d: Buffer) => {
        mostInOneRead = Math.max(mostInOneRead, d.toString('latin1').split('POST ').length - 1);
        out.write(d);
      });
      out.pipe(inbound);
      inbound.on('error', () => out.destroy());
      out.on('error', () => inbound.destroy());
      inbound.on('close', () => out.destroy());
    });
    await new Promise<void>((r) => tap.listen(0, '127.0.0.1', r));
    const tapUrl = `http://127.0.0.1:${(tap.address() as AddressInfo).port}`;
    const localnet = loadChains({}).find((c) => c.id === 'localnet')!;
    const g = await startGateway({
      ...gwOptions,
      chains: [withUpstreams(localnet, { full: [tapUrl] }, [])],
      upstreamPipeline: 8,
    });
    try {
      const k = await addKey();
      const url = new URL(`${g.url}/v1/localnet/${k.key}`);
      const calls = [
        ...Array.from({ length: 12 }, (_, i) => call('eth_blockNumber', [], i)),
        ...Array.from({ length: 12 }, (_, i) =>
          call('eth_getBalance', [ACCOUNT1, 'latest'], `b${i}`),
        ),
        // Not quick (20 RU): each goes alone.
        ...Array.from({ length: 4 }, (_, i) =>
          call('eth_getBlockByNumber', ['0x0', false], `n${i}`),
        ),
      ];
      // One socket per call, all connected, then every request written in the same tick: the gateway reads them
      // in one event-loop turn.
      const sockets = await Promise.all(
        calls.map(
          () =>
            new Promise<net.Socket>((resolve, reject) => {
              const s = net.connect(Number(url.port), url.hostname, () => resolve(s));
              s.on('error', reject);
            }),
        ),
      );
      const answers = sockets.map(
        (s) =>
          new Promise<unknown>((resolve) => {
            let text = '';
            s.on('data', (d: Buffer) => {
              text += d.toString('utf8');
              const end = text.indexOf('\r\n\r\n');
              const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? -1);
              if (end >= 0 && length >= 0 && text.length >= end + 4 + length) {
                s.destroy();
                resolve(JSON.parse(text.slice(end + 4, end + 4 + length)));
              }
            });
          }),
      );
      sockets.forEach((s, i) => {
        const body = JSON.stringify(calls[i]);
        s.write(
          `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\n` +
            `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      });
      const got = (await Promise.all(answers)) as { id: unknown; result: unknown }[];
      const block = (await direct('eth_blockNumber')).result;
      const genesis = (await direct('eth_getBlockByNumber', ['0x0', false])).result;
      const balance = (await direct('eth_getBalance', [ACCOUNT1, 'latest'])).result;
      expect(got.map((a) => a.id)).toEqual(calls.map((c) => c.id));
      got.forEach((a, i) => {
        const method = calls[i]!.method;
        expect(a.result).toEqual(
          method === 'eth_blockNumber' ? block : method === 'eth_getBalance' ? balance : genesis,
        );
      });
      // Quick reads marked quick, the rest not. How many share a write depends on how many the gateway reads in
      // one event-loop turn (all of them here on a quiet machine; one at a time when the kernel delivers the
      // packets late under load), never more than the depth.
      const sent = posted.filter((p) => p.quick !== undefined); // the health checks' probes aside
      expect(
        sent
          .filter((p) => p.quick)
          .map((p) => p.method)
          .sort(),
      ).toEqual(
        calls
          .filter((c) => c.method !== 'eth_getBlockByNumber')
          .map((c) => c.method)
          .sort(),
      );
      expect(sent.filter((p) => !p.quick).map((p) => p.method)).toEqual(
        Array(4).fill('eth_getBlockByNumber'),
      );
      expect(mostInOneRead).toBeGreaterThanOrEqual(1);
      expect(mostInOneRead).toBeLessThanOrEqual(8);
      expect(await usageOf(k, g)).toEqual({
        eth_blockNumber: { requests: 12, ru: 120, errors: 0 },
        eth_getBalance: { requests: 12, ru: 180, errors: 0 },
        eth_getBlockByNumber: { requests: 4, ru: 80, errors: 0 },
      });
    } finally {
      spy.mockRestore();
      await g.stop();
      await new Promise<void>((r) => tap.close(() => r()));
    }
  });

  it('UPSTREAM_PIPELINE is read as a whole number from 1 to 64 (default 8), anything else refused', () => {
    expect(pipelineFromEnv(undefined)).toBe(8);
    expect(pipelineFromEnv('')).toBe(8);
    expect(pipelineFromEnv('1')).toBe(1);
    expect(pipelineFromEnv('16')).toBe(16);
    for (const bad of ['0', '65', '2.5', 'eight', '-1', '1e9'])
      expect(() => pipelineFromEnv(bad), bad).toThrow(/UPSTREAM_PIPELINE/);
  });
});

describe('bad input: right status, clear JSON-RPC error, nothing metered', () => {
  const allow = {
    origins: ['https://good.example'],
    ips: [],
    contracts: ['0x000000000000000000000000000000000000dead'],
    methods: ['eth_chainId', 'eth_call'],
  };
  let k: TKeyInfo;
  let paused: TKeyInfo;
  let ipLocked: TKeyInfo;
  let broke: TKeyInfo;
  let deleted: TKeyInfo;

  beforeAll(async () => {
    k = await addKey({ allowlists: allow });
    paused = await addKey({ paused: true });
    ipLocked = await addKey({
      allowlists: { origins: [], ips: ['10.1.2.3', '192.168.0.0/16'], contracts: [], methods: [] },
    });
    broke = await addKey();
    outOfRu.add(broke.accountId);
    deleted = await addKey();
    db.set(deleted.keyId, { ...deleted, deleted: true });
    await channel.publish(deleted.keyId);
    await sleep(10);
  });

  type TCase = {
    name: string;
    url: () => string;
    body?: unknown;
    headers?: Record<string, string>;
    method?: string;
    status: number;
    code: number;
    message?: RegExp;
  };
  const json = (b: unknown) => JSON.stringify(b);
  const cases: TCase[] = [
    {
      name: 'malformed JSON',
      url: () => endpoint(k),
      body: '{"jsonrpc":"2.0",',
      status: 400,
      code: -32700,
    },
    {
      name: 'empty batch',
      url: () => endpoint(k),
      body: '[]',
      status: 400,
      code: -32600,
      message: /empty batch/,
    },
    {
      name: 'oversize batch (11 > 10)',
      url: () => endpoint(k),
      body: json(Array.from({ length: 11 }, (_, i) => call('eth_chainId', [], i))),
      status: 413,
      code: -32600,
      message: /limit of 10/,
    },
    {
      name: 'huge params (body over 64 KiB)',
      url: () => endpoint(k),
      body: json(
        call('eth_call', [
          { to: '0x000000000000000000000000000000000000dead', data: '0x' + 'ab'.repeat(40_000) },
        ]),
      ),
      status: 413,
      code: -32600,
    },
    {
      name: 'gzip bomb (inflates past the limit)',
      url: () => endpoint(k),
      body: gzipSync(Buffer.alloc(1024 * 1024, 32)),
      headers: { 'content-encoding': 'gzip' },
      status: 413,
      code: -32600,
    },
    {
      name: 'corrupt gzip',
      url: () => endpoint(k),
      body: 'not gzip at all',
      headers: { 'content-encoding': 'gzip' },
      status: 400,
      code: -32700,
    },
    {
      name: 'unsupported content-encoding',
      url: () => endpoint(k),
      body: json(call('eth_chainId')),
      headers: { 'content-encoding': 'br' },
      status: 415,
      code: -32600,
    },
    { name: 'not an object', url: () => endpoint(k), body: '42', status: 400, code: -32600 },
    {
      name: 'no method',
      url: () => endpoint(k),
      body: '{"jsonrpc":"2.0","id":1}',
      status: 400,
      code: -32600,
    },
    {
      name: 'unknown chain',
      url: () => endpoint(k, 'nochain'),
      body: json(call('eth_chainId')),
      status: 404,
      code: -32001,
      message: /unknown chain 'nochain'/,
    },
    {
      name: 'chain without upstream',
      url: () => endpoint(k, 'ethereum'),
      body: json(call('eth_chainId')),
      status: 503,
      code: -32002,
    },
    {
      name: 'unknown key',
      url: () => `${gw.url}/v1/localnet/not-a-key`,
      body: json(call('eth_chainId')),
      status: 401,
      code: -32003,
    },
    {
      name: 'deleted key',
      url: () => endpoint(deleted),
      body: json(call('eth_chainId')),
      status: 401,
      code: -32003,
    },
    {
      name: 'paused key',
      url: () => endpoint(paused),
      body: json(call('eth_chainId')),
      status: 403,
      code: -32004,
      message: /paused/,
    },
    {
      name: 'method not in allowlist',
      url: () => endpoint(k),
      body: json(call('eth_getBalance', [ACCOUNT1, 'latest'])),
      status: 403,
      code: -32004,
      message: /eth_getBalance/,
    },
    {
      name: 'origin not in allowlist',
      url: () => endpoint(k),
      body: json(call('eth_chainId')),
      headers: { origin: 'https://evil.example' },
      status: 403,
      code: -32004,
      message: /origin/,
    },
    {
      name: 'IP not in allowlist',
      url: () => endpoint(ipLocked),
      body: json(call('eth_chainId')),
      status: 403,
      code: -32004,
      message: /127\.0\.0\.1/,
    },
    {
      name: 'contract not in allowlist',
      url: () => endpoint(k),
      body: json(
        call('eth_call', [{ to: '0x000000000000000000000000000000000000BEEF' }, 'latest']),
      ),
      status: 403,
      code: -32004,
      message: /contract/,
    },
    {
      name: 'GET instead of POST',
      url: () => endpoint(k),
      method: 'GET',
      status: 405,
      code: -32600,
    },
    {
      name: 'path without key',
      url: () => `${gw.url}/v1/localnet`,
      body: json(call('eth_chainId')),
      status: 404,
      code: -32601,
    },
    {
      name: 'account without RU',
      url: () => endpoint(broke),
      body: json(call('eth_chainId')),
      status: 402,
      code: -32006,
      message: /no RU left/,
    },
  ];

  it.each(cases)('$name → HTTP $status, code $code', async (c) => {
    const res = await fetch(c.url(), {
      method: c.method ?? 'POST',
      headers: { 'content-type': 'application/json', ...c.headers },
      body: c.method === 'GET' ? undefined : (c.body as string | Buffer),
    });
    expect(res.status).toBe(c.status);
    const body = (await res.json()) as {
      jsonrpc: string;
      error: { code: number; message: string };
    };
    expect(body.jsonrpc).toBe('2.0');
    expect(body.error.code).toBe(c.code);
    if (c.message) expect(body.error.message).toMatch(c.message);
    if (c.status === 403 && c.headers?.origin)
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a batch answers refused calls in place and meters only the served ones', async () => {
    const r = await rpc(endpoint(k), [
      call('eth_chainId', [], 1),
      call('eth_getBalance', [ACCOUNT1, 'latest'], 2),
      { id: 3 },
    ]);
    expect(r.status).toBe(200);
    const items = r.body as { id: number; result?: string; error?: { code: number } }[];
    expect(items.map((i) => [i.id, i.result ?? i.error?.code])).toEqual([
      [1, '0x7a69'],
      [2, -32004],
      [3, -32600],
    ]);
    expect(await usageOf(k)).toEqual({ eth_chainId: { requests: 1, ru: 5, errors: 0 } });
  });

  it('nothing was metered for refused calls, and the paused-service notice was raised once', async () => {
    await rpc(endpoint(broke), call('eth_chainId'));
    for (const key of [paused, ipLocked, broke, deleted]) expect(await usageOf(key)).toEqual({});
    expect(consumed.get(broke.accountId)).toBeUndefined();
    expect(notices.filter((n) => n.accountId === broke.accountId)).toEqual([
      {
        type: 'api_service_is_paused',
        accountId: broke.accountId,
        keyId: broke.keyId,
        chain: 'localnet',
        at: expect.any(Number),
      },
    ]);
  });

  it('the RU function is the same one the gateway charges with', () => {
    expect(
      computeRu({
        method: 'eth_getBalance',
        responseBytes: 60,
        archive: true,
        multiplier: 1,
        outcome: 'ok',
      }),
    ).toBe(20);
  });
});

describe('graceful stop', () => {
  it('flushes usage on stop, and a second gateway starts with no options but port and host', async () => {
    const k = await addKey();
    await rpc(endpoint(k), call('eth_chainId'));
    const before = sink.batches.length;
    await gw.stop();
    expect(sink.batches.length).toBe(before + 1);
    expect(sink.rows.filter((r) => r.keyId === k.keyId)).toHaveLength(1);
    const bare = await startGateway({ port: 0, host: '127.0.0.1' });
    const r = await rpc(`${bare.url}/v1/localnet/anything`, call('eth_chainId'));
    expect(r.status).toBe(401);
    await bare.stop();
  });
});
