import { describe, expect, it } from 'vitest';
import { KeyLimiter } from './limits';

const tier = { reqPerSec: 10, ruPerSec: 100, concurrency: 3 };

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('per-key token buckets', () => {
  it('allows a one-second burst of reqPerSec, then refuses with Retry-After', () => {
    const c = clock();
    const l = new KeyLimiter(c.now);
    for (let i = 0; i < 10; i++) {
      expect(l.acquire('k', tier, 1, 1).ok).toBe(true);
      l.release('k', 1, 1);
    }
    const v = l.acquire('k', tier, 1, 1);
    expect(v).toMatchObject({ ok: false, kind: 'requests', retryAfterSec: 1 });
    c.advance(100); // 0.1 s refills one request
    expect(l.acquire('k', tier, 1, 1).ok).toBe(true);
  });

  it('limits RU per second and settles the actual cost after the call', () => {
    const c = clock();
    const l = new KeyLimiter(c.now);
    expect(l.acquire('k', tier, 1, 50).ok).toBe(true);
    l.release('k', 50, 90); // cost more than the estimate: 10 RU left
    expect(l.acquire('k', tier, 1, 20)).toMatchObject({ ok: false, kind: 'ru' });
    c.advance(100); // +10 RU
    expect(l.acquire('k', tier, 1, 20).ok).toBe(true);
  });

  it('caps concurrency and frees the slot on release', () => {
    const l = new KeyLimiter(clock().now);
    for (let i = 0; i < 3; i++) expect(l.acquire('k', tier, 1, 1).ok).toBe(true);
    expect(l.acquire('k', tier, 1, 1)).toMatchObject({ ok: false, kind: 'concurrency' });
    l.release('k', 1, 1);
    expect(l.acquire('k', tier, 1, 1).ok).toBe(true);
  });

  it('keys are independent', () => {
    const l = new KeyLimiter(clock().now);
    for (let i = 0; i < 10; i++) {
      l.acquire('a', tier, 1, 1);
      l.release('a', 1, 1);
    }
    expect(l.acquire('a', tier, 1, 1).ok).toBe(false);
    expect(l.acquire('b', tier, 1, 1).ok).toBe(true);
  });

  it('a share of the rates for one of several processes: refill and concurrency split, the burst kept', () => {
    const c = clock();
    const l = new KeyLimiter(c.now, () => 1 / 2);
    // The full one-second burst (so a batch that fits the tier still fits)...
    expect(l.acquire('k', tier, 10, 10).ok).toBe(true);
    l.release('k', 10, 10);
    expect(l.acquire('k', tier, 1, 1)).toMatchObject({
      ok: false,
      kind: 'requests',
      retryAfterSec: 1,
    });
    // ...but half the refill: 0.2 s brings one request back, not two.
    c.advance(200);
    expect(l.acquire('k', tier, 2, 1)).toMatchObject({ ok: false, kind: 'requests' });
    expect(l.acquire('k', tier, 1, 1).ok).toBe(true);
    l.release('k', 1, 1);
    // Concurrency: ceil(3 / 2) = 2 slots in this process.
    c.advance(1000);
    expect(l.acquire('k', tier, 1, 1).ok).toBe(true);
    expect(l.acquire('k', tier, 1, 1).ok).toBe(true);
    expect(l.acquire('k', tier, 1, 1)).toMatchObject({ ok: false, kind: 'concurrency' });
  });
});
