// Exact billing under concurrency (issue 9, items 1–4, 7, 12): every call billed whatever its id, every slot and
// hold released on every path, overdraft bounded by one call, subscriptions cut when RUs run out, caps by tier.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transaction, weigwei } from 'micro-eth-signer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RuBudget } from '../src/budget';
import type { TChain } from '../src/chains';
import { loadChains, withUpstreams } from '../src/chains';
import { MemoryKeyStore } from '../src/key-cache';
import type { TLocalnet } from '../src/localnet';
import { startLocalnet } from '../src/localnet';
import type { TGateway } from '../src/server';
import { startGateway } from '../src/server';
import { getTier } from '../src/tiers';
import type { TKeyInfo } from '../src/types';
import { MemoryUsageSink } from '../src/usage';
import type { TCountingProxy } from './helpers';
import { call, freePort, makeKey, rpc, sleep, startCountingProxy } from './helpers';

const ACCOUNT0_PK = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ACCOUNT1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

let ln: TLocalnet;
let slow: TCountingProxy;
let gw: TGateway;
const sink = new MemoryUsageSink();
const keys = new MemoryKeyStore();
const budget = new RuBudget();

function addKey(overrides: Partial<TKeyInfo> = {}, ru = 1_000_000): TKeyInfo {
  const k = makeKey(overrides);
  keys.put(k);
  if (budget.available(k.accountId) === 0) budget.set(k.accountId, ru);
  return k;
}

const url = (k: TKeyInfo, chain = 'localnet') => `${gw.url}/v1/${chain}/${k.key}`;
const wsUrl = (k: TKeyInfo, chain = 'localnet') => url(k, chain).replace('http', 'ws');

async function usageOf(keyIds: string[]) {
  await gw.flushUsage();
  const out: Record<string, { requests: number; ru: number; errors: number }> = {};
  for (const r of sink.rows.filter((r) => keyIds.includes(r.keyId))) {
    const t = (out[r.method] ??= { requests: 0, ru: 0, errors: 0 });
    t.requests += r.requests;
    t.ru += r.ru;
    t.errors += r.errors;
  }
  return out;
}

type TMsg = { id?: unknown; result?: unknown; method?: string; error?: { code: number } };

async function openSocket(u: string) {
  const ws = new WebSocket(u);
  const messages: TMsg[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as TMsg | TMsg[];
    for (const x of Array.isArray(m) ? m : [m]) messages.push(x);
  });
  const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, messages, closed };
}

async function until(pred: () => boolean, what: string) {
  for (let i = 0; i < 200 && !pred(); i++) await sleep(25);
  expect(pred(), what).toBe(true);
}

async function direct(method: string, params: unknown[] = []) {
  return (await rpc(ln.url, call(method, params))).body as { result: string };
}

let txHash = '';
/** An upstream that keeps every body it receives and answers each call with its own id. */
const captured: unknown[] = [];
let capture: http.Server;

beforeAll(async () => {
  ln = await startLocalnet({ port: await freePort() });
  capture = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as
        { id?: unknown } | { id?: unknown }[];
      captured.push(body);
      const answer = (c: { id?: unknown }) => ({ jsonrpc: '2.0', id: c.id, result: '0x1' });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)));
    });
  });
  await new Promise<void>((r) => capture.listen(0, '127.0.0.1', r));
  const captureUrl = `http://127.0.0.1:${(capture.address() as AddressInfo).port}`;
  slow = await startCountingProxy(ln.url, 150);
  const base = loadChains({});
  const localnet = base.find((c) => c.id === 'localnet')!;
  const chains: TChain[] = [
    withUpstreams(localnet, { full: [ln.url] }, [ln.wsUrl]),
    { ...withUpstreams(localnet, { full: [slow.url] }, [ln.wsUrl]), id: 'slownet' },
    { ...withUpstreams(localnet, { full: [captureUrl] }, []), id: 'capnet' },
    // Nothing listens on port 9: every HTTP and WebSocket call to this chain fails upstream.
    {
      ...withUpstreams(localnet, { full: ['http://127.0.0.1:9'] }, ['ws://127.0.0.1:9']),
      id: 'deadnet',
    },
  ];
  gw = await startGateway({
    port: 0,
    host: '127.0.0.1',
    keys,
    chains,
    usageSink: sink,
    balance: budget,
    flushIntervalMs: 60_000,
    healthCheckIntervalMs: 60_000,
    upstreamTimeoutMs: 1000,
  });
  // One real transaction to trace (debug_traceTransaction is priced 150 RU).
  const nonce = (
    await direct('eth_getTransactionCount', [
      '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      'pending',
    ])
  ).result;
  const tx = Transaction.prepare({
    to: ACCOUNT1,
    value: 1n,
    maxFeePerGas: weigwei.decode('100'),
    nonce: BigInt(nonce),
    chainId: 31337n,
  }).signBy(ACCOUNT0_PK);
  txHash = (await direct('eth_sendRawTransaction', [tx.toHex()])).result;
}, 120_000);

afterAll(async () => {
  await gw?.stop();
  await slow?.close();
  await new Promise((r) => capture?.close(r));
  await ln?.stop();
});

describe('WebSocket calls are billed whatever their id (item 1)', () => {
  it('15 calls with the same id in one burst: 15 answers, 15 billed', async () => {
    const k = addKey();
    const s = await openSocket(wsUrl(k));
    const msg = JSON.stringify(call('eth_blockNumber', [], 7));
    for (let i = 0; i < 15; i++) s.ws.send(msg);
    await until(() => s.messages.length === 15, '15 answers');
    expect(s.messages.every((m) => m.id === 7 && typeof m.result === 'string')).toBe(true);
    s.ws.close();
    await s.closed;
    expect(await usageOf([k.keyId])).toEqual({
      eth_blockNumber: { requests: 15, ru: 150, errors: 0 },
    });
  });

  it('ids of two sockets never cross, and a batch with repeated ids answers each call', async () => {
    const k = addKey();
    const a = await openSocket(wsUrl(k));
    const b = await openSocket(wsUrl(k));
    a.ws.send(JSON.stringify(call('eth_chainId', [], 1)));
    b.ws.send(JSON.stringify(call('eth_blockNumber', [], 1)));
    a.ws.send(JSON.stringify([call('eth_chainId', [], 'x'), call('eth_chainId', [], 'x')]));
    await until(() => a.messages.length === 3 && b.messages.length === 1, 'answers');
    expect(a.messages.map((m) => m.result)).toEqual(['0x7a69', '0x7a69', '0x7a69']);
    expect(b.messages[0]?.result).not.toBe('0x7a69');
    a.ws.close();
    b.ws.close();
    await Promise.all([a.closed, b.closed]);
    expect(await usageOf([k.keyId])).toEqual({
      eth_chainId: { requests: 3, ru: 15, errors: 0 },
      eth_blockNumber: { requests: 1, ru: 10, errors: 0 },
    });
  });
});

describe('slots and holds are released on every path (item 2)', () => {
  const tier = { reqPerSec: 1000, ruPerSec: 100_000, concurrency: 10 };

  async function allSlotsFree(k: TKeyInfo) {
    await until(() => gw.inspect().inFlight(k.keyId) === 0, 'no slot held');
    expect(budget.heldRu(k.accountId)).toBe(0);
    // And the key serves a full round of parallel calls again.
    const replies = await Promise.all(
      Array.from({ length: tier.concurrency }, () => rpc(url(k), call('eth_chainId'))),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(tier.concurrency).fill(200));
  }

  it('a burst of 20 same-id calls then closing the socket', async () => {
    const k = addKey({ tier });
    const s = await openSocket(wsUrl(k, 'slownet'));
    const msg = JSON.stringify(call('eth_blockNumber', [], 7));
    for (let i = 0; i < 20; i++) s.ws.send(msg);
    await sleep(20);
    s.ws.close();
    await s.closed;
    await allSlotsFree(k);
  });

  it('upstream failure over HTTP, in a batch and over WebSocket', async () => {
    const k = addKey({ tier });
    const single = await rpc(url(k, 'deadnet'), call('eth_chainId'));
    expect(single.status).toBe(502);
    const batch = await rpc(url(k, 'deadnet'), [
      call('eth_chainId', [], 1),
      call('eth_chainId', [], 2),
    ]);
    expect((batch.body as TMsg[]).map((m) => m.error?.code)).toEqual([-32010, -32010]);
    const s = await openSocket(wsUrl(k, 'deadnet'));
    s.ws.send(JSON.stringify(call('eth_chainId', [], 3)));
    await until(() => s.messages.length === 1, 'failed answer');
    expect(s.messages[0]?.error?.code).toBe(-32010);
    s.ws.close();
    await s.closed;
    await allSlotsFree(k);
    // Failed calls are recorded as errors and cost nothing.
    expect(await usageOf([k.keyId])).toMatchObject({
      eth_chainId: { requests: 4 + tier.concurrency, ru: 5 * tier.concurrency, errors: 4 },
    });
  });

  it('refused calls (limits, allowlists, bad input) hold nothing', async () => {
    const k = addKey({
      tier: { ...tier, reqPerSec: 3 },
      allowlists: { origins: [], ips: [], contracts: [], methods: ['eth_chainId'] },
    });
    const s = await openSocket(wsUrl(k));
    s.ws.send(JSON.stringify(call('eth_blockNumber', [], 1))); // not allowed
    s.ws.send('{nope');
    s.ws.send(JSON.stringify([call('eth_chainId', [], 2), { id: 3 }])); // one bad call refuses the batch
    for (let i = 0; i < 5; i++) s.ws.send(JSON.stringify(call('eth_chainId', [], 10 + i)));
    await until(() => s.messages.length === 9, 'every message answered');
    expect(s.messages.filter((m) => m.error?.code === -32005).length).toBe(2); // 3 req/s
    s.ws.close();
    await s.closed;
    await until(() => gw.inspect().inFlight(k.keyId) === 0, 'no slot held');
    expect(budget.heldRu(k.accountId)).toBe(0);
  });
});

describe('RUs are held at admission: overdraft bounded by one call (item 3)', () => {
  it('2,000 RU, 50 keys × 3 parallel debug_traceTransaction (150 RU): at most one call over', async () => {
    const first = addKey({}, 2000);
    const ks = [first, ...Array.from({ length: 49 }, () => addKey({ accountId: first.accountId }))];
    const replies = await Promise.all(
      ks.flatMap((k) =>
        Array.from({ length: 3 }, () =>
          rpc(url(k, 'slownet'), call('debug_traceTransaction', [txHash])),
        ),
      ),
    );
    const answered = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status === 402);
    expect(answered.length + refused.length).toBe(150);
    // 13 calls fit in 2,000; the 14th starts with 50 left and is the one call allowed over.
    expect(answered.length).toBe(14);
    expect(budget.available(first.accountId)).toBe(2000 - 14 * 150);
    expect(budget.available(first.accountId)).toBeGreaterThanOrEqual(-150);
    expect(budget.heldRu(first.accountId)).toBe(0);
    const usage = await usageOf(ks.map((k) => k.keyId));
    expect(usage.debug_traceTransaction).toEqual({ requests: 14, ru: 14 * 150, errors: 0 });
  });

  it('a batch is admitted only if all but its last call fit', async () => {
    const k = addKey({}, 25);
    // 3 × eth_blockNumber (10 each): the first two need 20 < 25, the last starts with 5 left.
    const ok = await rpc(
      url(k),
      [1, 2, 3].map((i) => call('eth_blockNumber', [], i)),
    );
    expect(ok.status).toBe(200);
    expect(budget.available(k.accountId)).toBe(-5);
    const refused = await rpc(url(k), call('eth_chainId'));
    expect(refused.status).toBe(402);
    const k2 = addKey({}, 15);
    const tooBig = await rpc(
      url(k2),
      [1, 2, 3].map((i) => call('eth_blockNumber', [], i)),
    );
    expect(tooBig.status).toBe(402);
    expect(budget.available(k2.accountId)).toBe(15);
  });
});

describe('subscriptions end when the account runs out (item 4)', () => {
  it('two sockets with newHeads: cut with -32006 and close code 4402, at most one notification over', async () => {
    const k = addKey({}, 75);
    const a = await openSocket(wsUrl(k));
    const b = await openSocket(wsUrl(k));
    a.ws.send(JSON.stringify(call('eth_subscribe', ['newHeads'], 1)));
    b.ws.send(JSON.stringify(call('eth_subscribe', ['newHeads'], 1)));
    await until(() => a.messages.length === 1 && b.messages.length === 1, 'subscribed');
    // 75 − 2 × 10 = 55 left: 6 notifications of 10 fit (the 6th starts with 5), then both are cut.
    for (let i = 0; i < 8; i++) await direct('evm_mine');
    const [ca, cb] = await Promise.all([a.closed, b.closed]);
    expect([ca, cb]).toEqual([4402, 4402]);
    for (const s of [a, b]) expect(s.messages.at(-1)?.error?.code).toBe(-32006);
    const notifications =
      a.messages.filter((m) => m.method === 'eth_subscription').length +
      b.messages.filter((m) => m.method === 'eth_subscription').length;
    expect(notifications).toBe(6);
    expect(budget.available(k.accountId)).toBe(-5);
    const usage = await usageOf([k.keyId]);
    expect(usage.eth_subscription).toEqual({ requests: 6, ru: 60, errors: 0 });
    await until(
      () => gw.inspect().upstreamSubscriptions('localnet') === 0,
      'upstream unsubscribed',
    );
  });
});

describe('batches and sockets are capped by tier (items 7 and 12)', () => {
  const free = getTier('free')!;

  it('a Free batch over its limit is a 413 naming the limit, not a 429 forever', async () => {
    const k = addKey({ tier: free });
    const over = await rpc(
      url(k),
      Array.from({ length: 21 }, (_, i) => call('eth_chainId', [], i)),
    );
    expect(over.status).toBe(413);
    expect((over.body as { error: { message: string } }).error.message).toContain('limit of 20');
    const fits = await rpc(
      url(k),
      Array.from({ length: 20 }, (_, i) => call('eth_chainId', [], i)),
    );
    expect(fits.status).toBe(200);
    expect((fits.body as unknown[]).length).toBe(20);
  });

  it('sockets per key and subscriptions per socket are capped; one upstream subscription is shared', async () => {
    const k = addKey({ tier: free });
    const sockets: Awaited<ReturnType<typeof openSocket>>[] = [];
    for (let i = 0; i < free.socketsPerKey!; i++) sockets.push(await openSocket(wsUrl(k)));
    const refused = new WebSocket(wsUrl(k));
    const status = await new Promise<number>((r) =>
      refused.once('unexpected-response', (_q, res) => r(res.statusCode ?? 0)),
    );
    expect(status).toBe(429);
    expect(gw.inspect().openSockets(k.keyId)).toBe(free.socketsPerKey);

    const before = gw.inspect().upstreamSubscriptions('localnet');
    for (const s of sockets) s.ws.send(JSON.stringify(call('eth_subscribe', ['newHeads'], 1)));
    await until(() => sockets.every((s) => s.messages.length === 1), 'all subscribed');
    expect(gw.inspect().upstreamSubscriptions('localnet')).toBe(before + 1);
    const ids = new Set(sockets.map((s) => s.messages[0]?.result));
    expect(ids.size).toBe(sockets.length); // each client has its own subscription id

    const one = sockets[0]!;
    for (let i = 2; i <= free.subscriptionsPerSocket! + 1; i++)
      one.ws.send(JSON.stringify(call('eth_subscribe', ['newPendingTransactions'], i)));
    await until(() => one.messages.length === free.subscriptionsPerSocket! + 1, 'answers');
    const last = one.messages.find((m) => m.id === free.subscriptionsPerSocket! + 1);
    expect(last?.error?.code).toBe(-32005);

    await direct('evm_mine');
    await until(
      () => sockets.every((s) => s.messages.some((m) => m.method === 'eth_subscription')),
      'every socket notified',
    );
    for (const s of sockets) s.ws.close();
    await Promise.all(sockets.map((s) => s.closed));
    await until(() => gw.inspect().openSockets(k.keyId) === 0, 'sockets counted out');
    await until(
      () => gw.inspect().upstreamSubscriptions('localnet') === before,
      'upstream unsubscribed',
    );
  });
});

describe('only the JSON-RPC members go upstream (item 5)', () => {
  it('extra keys of a call, alone or in a batch, are dropped before forwarding', async () => {
    const k = addKey();
    captured.length = 0;
    const hostile = { ...call('eth_chainId', [], 1), extra: 'x', __proto__x: 1, auth: 'secret' };
    const one = await rpc(url(k, 'capnet'), hostile);
    expect(one.body).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1' });
    await rpc(url(k, 'capnet'), [hostile, { ...call('eth_blockNumber', [], 2), more: true }]);
    expect(captured).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      [
        { jsonrpc: '2.0', id: 0, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
      ],
    ]);
  });
});

describe('contract allowlist over HTTP, batch and WebSocket (item 5)', () => {
  const ALLOWED = '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
  const OTHER = ACCOUNT1;
  const allowlisted = () =>
    addKey({ allowlists: { origins: [], ips: [], contracts: [ALLOWED], methods: [] } });

  function signedTo(to: string, nonce: bigint) {
    return Transaction.prepare({
      to,
      value: 1n,
      maxFeePerGas: weigwei.decode('100'),
      nonce,
      chainId: 31337n,
    })
      .signBy(ACCOUNT0_PK)
      .toHex();
  }

  const refused = () => [
    call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]),
    call('eth_getStorageAt', [OTHER, '0x0', 'latest']),
    call('eth_getCode', [OTHER, 'latest']),
    call('eth_sendRawTransaction', [signedTo(OTHER, 1000n)]),
    { jsonrpc: '2.0', id: 1, method: 'eth_call', params: { to: OTHER, data: '0x' } },
    call('eth_call', [{ data: '0x6000' }, 'latest']), // contract creation
  ];
  const allowed = () => [
    call('eth_getCode', [ALLOWED, 'latest']),
    call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: ALLOWED }]),
    call('eth_call', [{ to: ALLOWED, data: '0x' }, 'latest']),
    call('eth_blockNumber', []),
  ];

  it('HTTP: every gap of the probe is refused with 403, allowed calls pass, nothing refused is billed', async () => {
    const k = allowlisted();
    for (const c of refused()) {
      const r = await rpc(url(k), c);
      expect(r.status, JSON.stringify(c).slice(0, 80)).toBe(403);
      expect((r.body as { error: { code: number } }).error.code).toBe(-32004);
    }
    const node = await rpc(url(k), call('eth_sendTransaction', [{ from: OTHER, to: ALLOWED }]));
    expect(node.status).toBe(400);
    for (const c of allowed()) expect((await rpc(url(k), c)).status, c.method).toBe(200);
    const batch = await rpc(url(k), [...refused(), ...allowed()]);
    const codes = (batch.body as TMsg[]).map((m) => m.error?.code ?? 'ok');
    expect(codes).toEqual([...refused().map(() => -32004), ...allowed().map(() => 'ok')]);
    const usage = await usageOf([k.keyId]);
    expect(Object.keys(usage).sort()).toEqual([
      'eth_blockNumber',
      'eth_call',
      'eth_getCode',
      'eth_getLogs',
    ]);
  });

  it('WebSocket: the same probes are refused in place', async () => {
    const k = allowlisted();
    const s = await openSocket(wsUrl(k));
    const probes = refused();
    probes.forEach((c, i) => s.ws.send(JSON.stringify({ ...c, id: i })));
    await until(() => s.messages.length === probes.length, 'every probe answered');
    expect(s.messages.map((m) => m.error?.code)).toEqual(probes.map(() => -32004));
    s.ws.send(JSON.stringify(call('eth_getCode', [ALLOWED, 'latest'], 'ok')));
    await until(() => s.messages.some((m) => m.id === 'ok'), 'allowed answered');
    expect(s.messages.find((m) => m.id === 'ok')?.result).toBe('0x');
    s.ws.close();
    await s.closed;
  });

  it('a key polls only filters it created here', async () => {
    const k = allowlisted();
    const made = await rpc(
      url(k),
      call('eth_newFilter', [{ fromBlock: 'latest', address: ALLOWED }]),
    );
    const filterId = (made.body as { result: string }).result;
    expect(filterId).toMatch(/^0x/);
    const mine = await rpc(url(k), call('eth_getFilterChanges', [filterId]));
    expect(mine.status).toBe(200);
    const other = allowlisted();
    const theirs = await rpc(url(other), call('eth_getFilterChanges', [filterId]));
    expect(theirs.status).toBe(403);
  });
});
