/**
 * Scale mode (issue 17, item 5): every gateway process takes a key's rate tokens from one bucket in Redis. Two
 * limiters stand for two processes (each believes two processes are alive): a key hammered through both gets one
 * tier between them, not two; a key whose calls all reach one process gets its whole tier there, not half (what a
 * 1/N split gave a client on one keep-alive connection); a dry bucket refuses on both; without Redis a process
 * falls back to its share.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisKeyLimiter } from '../src/gateway/redis-rate-limiter';
import { isReachable } from './helpers/net';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const hasRedis = await isReachable(REDIS_URL, 6379);

const tier = { reqPerSec: 100, ruPerSec: 1_000_000, concurrency: 1000 };
const opened: RedisKeyLimiter[] = [];

function limiter(prefix: string, redisUrl = REDIS_URL): RedisKeyLimiter {
  const l = new RedisKeyLimiter({
    redisUrl,
    keyPrefix: prefix,
    share: () => 1 / 2,
    onError: () => {},
  });
  opened.push(l);
  return l;
}

/**
 * Offers one call at a time to the limiters in turn for `ms` of wall time, letting leases come back between
 * offers (as the event loop does between requests); counts what each admitted.
 */
async function hammer(ls: RedisKeyLimiter[], keyId: string, ms: number): Promise<number[]> {
  const admitted = ls.map(() => 0);
  const until = performance.now() + ms;
  let i = 0;
  while (performance.now() < until) {
    const at = i++ % ls.length;
    const l = ls[at]!;
    if (l.acquire(keyId, tier, 1, 1).ok) {
      admitted[at]! += 1;
      l.release(keyId, 1, 1);
    }
    await new Promise((r) => setImmediate(r));
  }
  await Promise.all(ls.map((l) => l.settle()));
  return admitted;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((l) => l.stop()));
});

describe.skipIf(!hasRedis)('per-key token buckets in Redis, shared by gateway processes', () => {
  it('two processes hammering one key admit one tier between them, within the lease bound', async () => {
    const prefix = `test:rate:${randomBytes(4).toString('hex')}:`;
    const a = limiter(prefix);
    const b = limiter(prefix);
    const t0 = performance.now();
    const admitted = await hammer([a, b], 'key-1', 1500);
    const seconds = (performance.now() - t0) / 1000;
    const total = admitted[0]! + admitted[1]!;
    // One second of burst plus the refill over the run; each process may run one lease (5) plus one call into
    // debt past a dry bucket. Two processes each keeping the whole tier would admit about twice this.
    expect(total).toBeLessThanOrEqual(Math.ceil(tier.reqPerSec * (1 + seconds)) + 2 * (5 + 1));
    // Both processes were served: the bucket is shared, not owned by the first to ask.
    expect(admitted[0]).toBeGreaterThan(0);
    expect(admitted[1]).toBeGreaterThan(0);
    // And the tier was reached, not a fraction of it: at least the burst and most of the refill.
    expect(total).toBeGreaterThanOrEqual(tier.reqPerSec * (1 + (seconds - 0.5) * 0.5));
  });

  it('a key whose calls all reach one process gets its whole tier there, not its share', async () => {
    const prefix = `test:rate:${randomBytes(4).toString('hex')}:`;
    const a = limiter(prefix);
    limiter(prefix); // the second process, alive and idle
    const t0 = performance.now();
    const [admitted] = await hammer([a], 'key-2', 2000);
    const seconds = (performance.now() - t0) / 1000;
    // Half the tier (the old 1/N split with two processes) would be 100 + 50 per second: at most ~200 here.
    const half = tier.reqPerSec + (tier.reqPerSec / 2) * seconds;
    expect(admitted).toBeGreaterThan(half + 20);
    expect(admitted).toBeLessThanOrEqual(Math.ceil(tier.reqPerSec * (1 + seconds)) + 5 + 1);
  });

  it('refuses on every process once the bucket is dry, with a Retry-After, and serves again after a refill', async () => {
    const prefix = `test:rate:${randomBytes(4).toString('hex')}:`;
    const a = limiter(prefix);
    const b = limiter(prefix);
    const slow = { reqPerSec: 5, ruPerSec: 1_000_000, concurrency: 100 };
    let admitted = 0;
    for (let i = 0; i < 40; i++) {
      const l = i % 2 === 0 ? a : b;
      if (l.acquire('key-3', slow, 1, 1).ok) {
        admitted += 1;
        l.release('key-3', 1, 1);
      }
      await a.settle();
      await b.settle();
    }
    // The one-second burst of 5 (plus what refilled while the loop ran, and one call of debt per process).
    expect(admitted).toBeGreaterThanOrEqual(5);
    expect(admitted).toBeLessThanOrEqual(5 + 2 + 2);
    const va = a.acquire('key-3', slow, 1, 1);
    const vb = b.acquire('key-3', slow, 1, 1);
    expect(va).toMatchObject({ ok: false, kind: 'requests' });
    expect(vb).toMatchObject({ ok: false, kind: 'requests' });
    if (!va.ok) expect(va.retryAfterSec).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 600)); // 3 tokens back in the bucket
    let again = 0;
    for (let i = 0; i < 6; i++) {
      if (a.acquire('key-3', slow, 1, 1).ok) again += 1;
      await a.settle();
    }
    expect(again).toBeGreaterThanOrEqual(1);
  });

  it('a small tier admits a small burst before Redis answers: three calls together on a fresh key all pass', async () => {
    const prefix = `test:rate:${randomBytes(4).toString('hex')}:`;
    const a = limiter(prefix);
    // The free tier's figures: a twentieth of a second would be a 1-request lease, and with it the third call of a
    // burst met a 429 while the key's bucket was full (its first lease still on its way).
    const free = { reqPerSec: 20, ruPerSec: 400, concurrency: 100 };
    const burst = [0, 1, 2].map(() => a.acquire('key-6', free, 1, 10));
    expect(burst.map((v) => v.ok)).toEqual([true, true, true]);
    for (let i = 0; i < 3; i++) a.release('key-6', 10, 10);
    // Still bounded before the answer: one lease (four requests) plus one admission.
    let more = 0;
    while (more < 10 && a.acquire('key-6', free, 1, 10).ok) {
      a.release('key-6', 10, 10);
      more += 1;
    }
    expect(3 + more).toBe(4 + 1);
    await a.settle();
  });

  it('settles RU after the call: a call that cost more than its estimate leaves the key in debt', async () => {
    const prefix = `test:rate:${randomBytes(4).toString('hex')}:`;
    const a = limiter(prefix);
    const ruTier = { reqPerSec: 1000, ruPerSec: 100, concurrency: 100 };
    expect(a.acquire('key-4', ruTier, 1, 10).ok).toBe(true);
    await a.settle();
    a.release('key-4', 10, 200); // twice the bucket's second
    await a.settle();
    let admitted = 0;
    for (let i = 0; i < 20; i++) {
      if (a.acquire('key-4', ruTier, 1, 10).ok) {
        admitted += 1;
        a.release('key-4', 10, 10);
      }
      await a.settle();
    }
    // The 200 RU were owed before anything else: at most the debt allowance (one lease of 5) went through.
    expect(admitted).toBeLessThanOrEqual(1);
    expect(a.acquire('key-4', ruTier, 1, 10)).toMatchObject({ ok: false, kind: 'ru' });
  });

  it('without Redis, a process refills its own bucket at its share of the tier', async () => {
    const a = limiter('test:rate:down:', 'redis://127.0.0.1:1');
    // First call: into debt while the lease is asked for; the take fails and the process falls back.
    expect(a.acquire('key-5', tier, 1, 1).ok).toBe(true);
    a.release('key-5', 1, 1);
    await a.settle();
    await new Promise((r) => setTimeout(r, 200)); // half of 100/s × 0.2 s = 10 tokens, minus the debt of 1
    let admitted = 0;
    for (let i = 0; i < 30; i++) {
      if (a.acquire('key-5', tier, 1, 1).ok) {
        admitted += 1;
        a.release('key-5', 1, 1);
      }
    }
    expect(admitted).toBeGreaterThanOrEqual(5);
    expect(admitted).toBeLessThan(30);
  });
});
