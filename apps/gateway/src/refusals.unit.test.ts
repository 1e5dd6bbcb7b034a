import { describe, expect, it } from 'vitest';
import { RefusalCounter } from './refusals';
import type { TRefusalBatch } from './types';

const T = Date.UTC(2026, 10, 20, 10, 0, 30);

describe('RefusalCounter', () => {
  it('adds up per key, chain, code and minute', async () => {
    const written: TRefusalBatch[] = [];
    const c = new RefusalCounter({ write: async (b) => void written.push(b) });
    c.note('a1', 'k1', 'localnet', -32005, 1, T);
    c.note('a1', 'k1', 'localnet', -32005, 3, T + 10_000);
    c.note('a1', 'k1', 'localnet', -32005, 1, T + 60_000);
    c.note('a1', 'k1', 'ethereum', -32005, 1, T);
    c.note('a1', 'k1', 'localnet', -32004, 1, T);
    await c.flush();
    expect(written).toHaveLength(1);
    expect(written[0]!.rows).toEqual([
      {
        accountId: 'a1',
        keyId: 'k1',
        chain: 'localnet',
        code: -32005,
        minute: T - 30_000,
        count: 4,
      },
      {
        accountId: 'a1',
        keyId: 'k1',
        chain: 'localnet',
        code: -32005,
        minute: T + 30_000,
        count: 1,
      },
      {
        accountId: 'a1',
        keyId: 'k1',
        chain: 'ethereum',
        code: -32005,
        minute: T - 30_000,
        count: 1,
      },
      {
        accountId: 'a1',
        keyId: 'k1',
        chain: 'localnet',
        code: -32004,
        minute: T - 30_000,
        count: 1,
      },
    ]);
    await c.flush();
    expect(written).toHaveLength(1); // nothing new, nothing written
  });

  it('holds at most maxRows distinct rows between flushes; more of a held row still count', async () => {
    const written: TRefusalBatch[] = [];
    const c = new RefusalCounter({ write: async (b) => void written.push(b), maxRows: 2 });
    c.note('a', 'k1', 'x', -32005, 1, T);
    c.note('a', 'k2', 'x', -32005, 1, T);
    c.note('a', 'k3', 'x', -32005, 5, T);
    c.note('a', 'k1', 'x', -32005, 1, T);
    expect(c.dropped).toBe(5);
    await c.flush();
    expect(written[0]!.rows.map((r) => [r.keyId, r.count])).toEqual([
      ['k1', 2],
      ['k2', 1],
    ]);
  });

  it('retries a failed batch with its id and keeps at most maxPendingBatches', async () => {
    const written: TRefusalBatch[] = [];
    let fail = true;
    const c = new RefusalCounter({
      write: async (b) => {
        if (fail) throw new Error('down');
        written.push(b);
      },
      maxPendingBatches: 2,
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      c.note('a', `k${i}`, 'x', -32004, 1, T);
      await expect(c.flush()).rejects.toThrow('down');
    }
    fail = false;
    await c.flush();
    for (const b of written) ids.push(b.rows[0]!.keyId);
    expect(ids).toEqual(['k1', 'k2']); // the oldest was dropped
  });
});
