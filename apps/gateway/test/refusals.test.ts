// Refusals of known keys are counted per (key, chain, JSON-RPC code, minute) and reach the sink; answered calls,
// unknown keys and sinks without writeRefusals count nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChains, withUpstreams } from '../src/chains';
import { MemoryKeyStore } from '../src/key-cache';
import type { TLocalnet } from '../src/localnet';
import { startLocalnet } from '../src/localnet';
import type { TGateway } from '../src/server';
import { startGateway } from '../src/server';
import type { TKeyInfo, TRefusalBatch, TRefusalRow } from '../src/types';
import { MemoryUsageSink } from '../src/usage';
import { call, freePort, makeKey, rpc } from './helpers';

const ACCOUNT1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

let ln: TLocalnet;
let gw: TGateway;
const keys = new MemoryKeyStore();
const outOfRu = new Set<string>();
const usage = new MemoryUsageSink();
const batches: TRefusalBatch[] = [];
let failWrites = 0;

function addKey(overrides: Partial<TKeyInfo> = {}): TKeyInfo {
  const k = makeKey(overrides);
  keys.put(k);
  return k;
}

const endpoint = (k: TKeyInfo | { key: string }) => `${gw.url}/v1/localnet/${k.key}`;

/** Refusal counts of one key by code, after a flush. */
async function refusalsOf(k: TKeyInfo): Promise<Record<number, number>> {
  await gw.flushUsage();
  const out: Record<number, number> = {};
  for (const r of batches.flatMap((b) => b.rows).filter((r) => r.keyId === k.keyId))
    out[r.code] = (out[r.code] ?? 0) + r.count;
  return out;
}

beforeAll(async () => {
  ln = await startLocalnet({ port: await freePort() });
  const chains = loadChains({}).map((c) =>
    c.id === 'localnet' ? withUpstreams(c, { full: [ln.url] }, [ln.wsUrl]) : c,
  );
  gw = await startGateway({
    port: 0,
    host: '127.0.0.1',
    keys,
    chains,
    usageSink: {
      write: (b) => usage.write(b),
      writeRefusals: async (b) => {
        if (failWrites > 0) {
          failWrites -= 1;
          throw new Error('database down');
        }
        batches.push(b);
      },
    },
    balance: {
      hasRu: (a) => !outOfRu.has(a),
      reserve: (a) => !outOfRu.has(a),
      settle: () => {},
    },
    flushIntervalMs: 60_000,
    healthCheckIntervalMs: 60_000,
  });
});

afterAll(async () => {
  await gw?.stop();
  await ln?.stop();
});

describe('refusal counts', () => {
  it('counts a call over the RU/s limit as -32005, and answered calls not at all', async () => {
    const k = addKey({ tier: { reqPerSec: 1000, ruPerSec: 45, concurrency: 10 } });
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await rpc(endpoint(k), call('eth_getBalance', [ACCOUNT1, 'latest']))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(await refusalsOf(k)).toEqual({ [-32005]: 1 });
  });

  it('counts every call of a batch refused for lack of RUs as -32006', async () => {
    const k = addKey();
    outOfRu.add(k.accountId);
    const r = await rpc(endpoint(k), [call('eth_chainId', [], 1), call('eth_chainId', [], 2)]);
    expect(r.status).toBe(402);
    expect((await rpc(endpoint(k), call('eth_chainId'))).status).toBe(402);
    expect(await refusalsOf(k)).toEqual({ [-32006]: 3 });
    outOfRu.delete(k.accountId);
  });

  it('counts allowlist refusals and a paused key as -32004, methods not offered as -32601', async () => {
    const k = addKey({
      allowlists: { origins: [], ips: [], contracts: [], methods: ['eth_chainId'] },
    });
    expect((await rpc(endpoint(k), call('eth_blockNumber'))).status).toBe(403);
    expect((await rpc(endpoint(k), call('admin_peers'))).status).toBe(400);
    const origin = addKey({
      allowlists: { origins: ['https://app.example.com'], ips: [], contracts: [], methods: [] },
    });
    const fromElsewhere = await rpc(endpoint(origin), call('eth_chainId'), {
      origin: 'https://evil.example.com',
    });
    expect(fromElsewhere.status).toBe(403);
    const paused = addKey({ paused: true });
    expect((await rpc(endpoint(paused), call('eth_chainId'))).status).toBe(403);

    expect(await refusalsOf(k)).toEqual({ [-32004]: 1, [-32601]: 1 });
    expect(await refusalsOf(origin)).toEqual({ [-32004]: 1 });
    expect(await refusalsOf(paused)).toEqual({ [-32004]: 1 });
  });

  it('rows carry the account, the chain and the minute; an unknown key counts nothing', async () => {
    const k = addKey({ tier: { reqPerSec: 1000, ruPerSec: 20, concurrency: 10 } });
    const before = batches.flatMap((b) => b.rows).length;
    expect((await rpc(endpoint({ key: 'no-such-key' }), call('eth_chainId'))).status).toBe(401);
    await gw.flushUsage();
    expect(batches.flatMap((b) => b.rows).length).toBe(before);

    for (let i = 0; i < 3; i++)
      await rpc(endpoint(k), call('eth_getBalance', [ACCOUNT1, 'latest']));
    await gw.flushUsage();
    const rows = batches.flatMap((b) => b.rows).filter((r) => r.keyId === k.keyId);
    expect(rows).toEqual([
      {
        accountId: k.accountId,
        keyId: k.keyId,
        chain: 'localnet',
        code: -32005,
        minute: expect.any(Number) as number,
        count: 2,
      } satisfies TRefusalRow,
    ]);
    expect(rows[0]!.minute % 60_000).toBe(0);
    // refused calls are not usage
    expect(usage.rows.filter((r) => r.keyId === k.keyId).reduce((n, r) => n + r.requests, 0)).toBe(
      1,
    );
  });

  it('keeps a batch whose write failed and writes it again with the same id', async () => {
    const k = addKey({ paused: true });
    await rpc(endpoint(k), call('eth_chainId'));
    failWrites = 1;
    await expect(gw.flushUsage()).rejects.toThrow('database down');
    await rpc(endpoint(k), call('eth_chainId'));
    expect(await refusalsOf(k)).toEqual({ [-32004]: 2 });
    const ids = batches
      .filter((b) => b.rows.some((r) => r.keyId === k.keyId))
      .map((b) => b.batchId);
    expect(new Set(ids).size).toBe(2);
  });
});
