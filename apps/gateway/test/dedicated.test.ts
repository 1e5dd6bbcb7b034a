// Dedicated nodes at /dn/{nodeId}/{apiKey} against a real Hardhat node: only the owner's keys reach a node, calls
// are counted per node and charged no RUs, the shared tier's limits do not apply, and a node that stops or expires
// is refused at once; bad paths and hostile input get the gateway's usual answers.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadChains, withUpstreams } from '../src/chains';
import { MemoryKeyStore } from '../src/key-cache';
import type { TLocalnet } from '../src/localnet';
import { startLocalnet } from '../src/localnet';
import type { TGateway } from '../src/server';
import { startGateway } from '../src/server';
import type { AccountBalance, TDnRoute, TKeyInfo } from '../src/types';
import { MemoryUsageSink } from '../src/usage';
import { call, freePort, makeKey, rpc, sleep } from './helpers';

let node: TLocalnet;
let gw: TGateway;
const sink = new MemoryUsageSink();
const keys = new MemoryKeyStore();
const nodes = new Map<string, TDnRoute>();
/** Every shared-chain call would be refused: a dedicated node needs no RUs. */
const broke: AccountBalance = {
  hasRu: () => false,
  reserve: () => false,
  settle: () => {},
};

function addKey(overrides: Partial<TKeyInfo> = {}): TKeyInfo {
  const k = makeKey(overrides);
  keys.put(k);
  return k;
}

function addNode(accountId: string, overrides: Partial<TDnRoute> = {}): TDnRoute {
  const n: TDnRoute = {
    nodeId: randomUUID(),
    accountId,
    chain: 'localnet',
    http: node.url,
    ws: node.wsUrl,
    serving: true,
    expiresAt: Date.now() + 86_400_000,
    ...overrides,
  };
  nodes.set(n.nodeId, n);
  return n;
}

const dn = (n: TDnRoute, k: TKeyInfo) => `${gw.url}/dn/${n.nodeId}/${k.key}`;

beforeAll(async () => {
  node = await startLocalnet({ port: await freePort() });
  const chains = loadChains({}).map((c) =>
    c.id === 'localnet' ? withUpstreams(c, { full: [node.url] }, [node.wsUrl]) : c,
  );
  gw = await startGateway({
    port: 0,
    host: '127.0.0.1',
    chains,
    keys,
    dnNodes: { get: (id) => nodes.get(id) },
    balance: broke,
    usageSink: sink,
    flushIntervalMs: 60_000,
  });
}, 120_000);

afterAll(async () => {
  await gw?.stop();
  await node?.stop();
});

describe('dedicated node endpoint', () => {
  it('serves the owner’s keys, counts the calls per node and charges no RUs, without the shared tier’s limits', async () => {
    // One request a second on the shared tier, and an account with no RUs at all.
    const k = addKey({ tier: { reqPerSec: 1, ruPerSec: 10, concurrency: 1 } });
    const n = addNode(k.accountId);
    const shared = await rpc(`${gw.url}/v1/localnet/${k.key}`, call('eth_chainId'));
    expect(shared.status).toBe(402);

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => rpc(dn(n, k), call('eth_chainId', [], i))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.map((a) => (a.body as { result: string }).result)).toEqual(
      Array(20).fill('0x7a69'),
    );
    const batch = await rpc(dn(n, k), [
      call('eth_blockNumber', [], 'a'),
      call('nope_method', [], 'b'),
    ]);
    expect(batch.status).toBe(200);
    const items = batch.body as { id: string; result?: string; error?: { code: number } }[];
    expect(items.find((i) => i.id === 'a')?.result).toMatch(/^0x/);
    expect(items.find((i) => i.id === 'b')?.error).toBeDefined();

    await gw.flushUsage();
    const rows = sink.rows.filter((r) => r.keyId === k.keyId);
    expect(rows.every((r) => r.chain === `dn:${n.nodeId}` && r.ru === 0)).toBe(true);
    const requests = rows.reduce((s, r) => s + r.requests, 0);
    expect(requests).toBe(21); // 20 + eth_blockNumber (an unknown method is refused before it is forwarded)
  });

  it('answers another account’s node, an unknown node and a deleted key without saying anything about the node', async () => {
    const owner = addKey();
    const stranger = addKey();
    const n = addNode(owner.accountId);
    const theirs = await rpc(dn(n, stranger), call('eth_chainId'));
    const unknown = await rpc(`${gw.url}/dn/${randomUUID()}/${stranger.key}`, call('eth_chainId'));
    expect(theirs.status).toBe(404);
    expect(theirs.text).toBe(unknown.text);
    expect(theirs.text).not.toContain(n.nodeId);
    const badKey = await rpc(`${gw.url}/dn/${n.nodeId}/not-a-key`, call('eth_chainId'));
    expect(badKey.status).toBe(401);
    keys.put({ ...owner, deleted: true });
    expect((await rpc(dn(n, owner), call('eth_chainId'))).status).toBe(401);
  });

  it('refuses a node that stops serving or passes its expiry, at once; the key’s own rules still apply', async () => {
    const k = addKey({
      allowlists: { origins: ['https://app.example'], ips: [], contracts: [], methods: [] },
    });
    const n = addNode(k.accountId);
    expect((await rpc(dn(n, k), call('eth_chainId'))).status).toBe(200);
    expect(
      (await rpc(dn(n, k), call('eth_chainId'), { origin: 'https://evil.example' })).status,
    ).toBe(403);
    nodes.set(n.nodeId, { ...n, serving: false });
    const stopped = await rpc(dn(n, k), call('eth_chainId'));
    expect(stopped.status).toBe(503);
    expect((stopped.body as { error: { code: number } }).error.code).toBe(-32002);
    nodes.set(n.nodeId, { ...n, expiresAt: Date.now() - 1 });
    expect((await rpc(dn(n, k), call('eth_chainId'))).status).toBe(503);
    const paused = addKey({ paused: true });
    const m = addNode(paused.accountId);
    expect((await rpc(dn(m, paused), call('eth_chainId'))).status).toBe(403);
  });

  it('moves with the node: a new address is used at once and the old route let go', async () => {
    const k = addKey();
    const n = addNode(k.accountId, { http: 'http://127.0.0.1:9' });
    const down = await rpc(dn(n, k), call('eth_chainId'));
    expect(down.status).toBe(502);
    nodes.set(n.nodeId, { ...n, http: node.url });
    expect((await rpc(dn(n, k), call('eth_chainId'))).status).toBe(200);
    nodes.delete(n.nodeId);
    gw.pruneDedicated();
    expect((await rpc(dn(n, k), call('eth_chainId'))).status).toBe(404);
  });

  it('bad paths and hostile input get clear answers and reach no node', async () => {
    const k = addKey();
    const n = addNode(k.accountId);
    const cases: [string, unknown, number][] = [
      [`${gw.url}/dn/`, call('eth_chainId'), 404],
      [`${gw.url}/dn/${n.nodeId}`, call('eth_chainId'), 404],
      [`${gw.url}/dn/${n.nodeId}/`, call('eth_chainId'), 404],
      [`${gw.url}/dn/${n.nodeId}/${k.key}/extra`, call('eth_chainId'), 404],
      [`${gw.url}/dn/..%2F..%2Fetc/${k.key}`, call('eth_chainId'), 404],
      [dn(n, k), '{not json', 400],
      [dn(n, k), [], 400],
      [dn(n, k), 'x'.repeat(3 * 1024 * 1024), 413],
    ];
    for (const [url, body, status] of cases) {
      const r = await rpc(url, body);
      expect(r.status, url).toBe(status);
    }
  });

  it('relays a WebSocket to the node and counts its calls without charging', async () => {
    const k = addKey();
    const n = addNode(k.accountId);
    const ws = new WebSocket(dn(n, k).replace('http', 'ws'));
    const messages: { id?: number; result?: string }[] = [];
    ws.on('message', (d) => messages.push(JSON.parse(d.toString())));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify(call('eth_chainId', [], 7)));
    for (let i = 0; i < 100 && !messages.some((m) => m.id === 7); i++) await sleep(50);
    expect(messages.find((m) => m.id === 7)?.result).toBe('0x7a69');
    ws.close();
    await gw.flushUsage();
    const rows = sink.rows.filter((r) => r.keyId === k.keyId);
    expect(rows.map((r) => [r.chain, r.method, r.requests, r.ru])).toEqual([
      [`dn:${n.nodeId}`, 'eth_chainId', 1, 0],
    ]);
  });
});
