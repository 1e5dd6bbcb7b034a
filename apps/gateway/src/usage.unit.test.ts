import { describe, expect, it } from 'vitest';
import type { TUsageBatch, UsageSink } from './types';
import { MemoryUsageSink, UsageAggregator } from './usage';

const MIN = 60_000;

describe('usage aggregation', () => {
  it('counts interleaved keys, chains, methods and minutes each in its own row, before and after a flush', async () => {
    const sink = new MemoryUsageSink();
    const u = new UsageAggregator({ sink, ruTableVersion: 'v1' });
    // A seeded walk over 2 keys × 2 chains × 3 methods × 2 minutes, each call counted by hand beside it.
    const want = new Map<string, number>();
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const record = (round: number) => {
      for (let i = 0; i < 400; i++) {
        const key = ['k1', 'k2'][next(2)]!;
        const chain = ['c1', 'c2'][next(2)]!;
        const method = ['m1', 'm2', 'm3'][next(3)]!;
        const at = (round * 2 + next(2)) * MIN + next(MIN);
        u.record(`acc-${key}`, key, chain, method, at, 10, false, 1);
        const id = `${key} ${chain} ${method} ${at - (at % MIN)}`;
        want.set(id, (want.get(id) ?? 0) + 1);
      }
    };
    record(0);
    await u.flush();
    record(0); // the same rows again after the flush: a new batch, counted from zero
    record(1);
    await u.flush();
    const got = new Map<string, number>();
    for (const r of sink.rows) {
      expect(r.accountId).toBe(`acc-${r.keyId}`);
      expect(r.ru).toBe(r.requests * 10);
      const id = `${r.keyId} ${r.chain} ${r.method} ${r.minute}`;
      got.set(id, (got.get(id) ?? 0) + r.requests);
    }
    expect(got).toEqual(want);
    expect(sink.batches).toHaveLength(2);
    // No row twice in one batch.
    for (const b of sink.batches) {
      const ids = b.rows.map((r) => `${r.keyId} ${r.chain} ${r.method} ${r.minute}`);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('aggregates per (account, key, chain, method, minute)', async () => {
    const sink = new MemoryUsageSink();
    const u = new UsageAggregator({ sink, ruTableVersion: 'v1' });
    u.record('a', 'k', 'localnet', 'eth_call', 5 * MIN + 10, 20, false, 1.5);
    u.record('a', 'k', 'localnet', 'eth_call', 5 * MIN + 50_000, 20, false, 3.2);
    u.record('a', 'k', 'localnet', 'eth_call', 6 * MIN, 0, true, 2);
    u.record('a', 'k', 'localnet', 'eth_chainId', 5 * MIN, 5, false, 1);
    await u.flush();
    expect(sink.batches).toHaveLength(1);
    expect(sink.batches[0]?.ruTableVersion).toBe('v1');
    const rows = sink.rows.sort((x, y) => x.minute - y.minute || x.method.localeCompare(y.method));
    expect(rows).toEqual([
      {
        accountId: 'a',
        keyId: 'k',
        chain: 'localnet',
        method: 'eth_call',
        minute: 5 * MIN,
        requests: 2,
        ru: 40,
        errors: 0,
        latencyMsSum: 5,
        latencyMsMax: 4,
      },
      {
        accountId: 'a',
        keyId: 'k',
        chain: 'localnet',
        method: 'eth_chainId',
        minute: 5 * MIN,
        requests: 1,
        ru: 5,
        errors: 0,
        latencyMsSum: 1,
        latencyMsMax: 1,
      },
      {
        accountId: 'a',
        keyId: 'k',
        chain: 'localnet',
        method: 'eth_call',
        minute: 6 * MIN,
        requests: 1,
        ru: 0,
        errors: 1,
        latencyMsSum: 2,
        latencyMsMax: 2,
      },
    ]);
    await u.flush(); // nothing new: no empty batch
    expect(sink.batches).toHaveLength(1);
  });

  it('retries a failed batch with the same batchId, and an idempotent sink counts it once', async () => {
    const seen: TUsageBatch[] = [];
    const inner = new MemoryUsageSink();
    let fail = true;
    const flaky: UsageSink = {
      async write(b) {
        seen.push(b);
        await inner.write(b);
        if (fail) throw new Error('connection lost after commit'); // the worst case: written, ack lost
      },
    };
    const u = new UsageAggregator({ sink: flaky, ruTableVersion: 'v1' });
    u.record('a', 'k', 'c', 'm', 0, 10, false, 1);
    await expect(u.flush()).rejects.toThrow();
    expect(u.pendingBatches).toBe(1);
    fail = false;
    u.record('a', 'k', 'c', 'm', 0, 7, false, 1);
    await u.flush();
    expect(seen.map((b) => b.batchId)).toEqual([
      seen[0]?.batchId,
      seen[0]?.batchId,
      seen[2]?.batchId,
    ]);
    expect(inner.batches).toHaveLength(2);
    expect(inner.rows.reduce((s, r) => s + r.ru, 0)).toBe(17);
    expect(u.pendingBatches).toBe(0);
  });

  it('a batch the sink keeps refusing does not hold up later batches', async () => {
    const inner = new MemoryUsageSink();
    const picky: UsageSink = {
      async write(b) {
        if (b.rows.some((r) => r.method === 'poison')) throw new Error('constraint violation');
        await inner.write(b);
      },
    };
    const u = new UsageAggregator({ sink: picky, ruTableVersion: 'v1' });
    u.record('a', 'k', 'c', 'poison', 0, 10, false, 1);
    await expect(u.flush()).rejects.toThrow();
    u.record('a', 'k', 'c', 'm', 0, 7, false, 1);
    await expect(u.flush()).rejects.toThrow(); // the refused batch is tried first, then goes to the back
    await expect(u.flush()).rejects.toThrow(); // the good batch is written, the refused one tried again
    expect(inner.rows.map((r) => r.method)).toEqual(['m']);
    expect(u.pendingBatches).toBe(1);
  });

  it('flushes on stop', async () => {
    const sink = new MemoryUsageSink();
    const u = new UsageAggregator({ sink, ruTableVersion: 'v1', flushIntervalMs: 60_000 });
    u.start();
    u.record('a', 'k', 'c', 'm', 0, 10, false, 1);
    await u.stop();
    expect(sink.rows).toHaveLength(1);
  });
});
