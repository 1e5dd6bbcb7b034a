// Key invalidation across two "processes" (two channel instances) through the real Redis at 127.0.0.1:6379.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CachedKeyStore } from '../src/key-cache';
import { RedisInvalidationChannel } from '../src/redis-invalidation';
import type { TKeyInfo } from '../src/types';
import { makeKey, sleep } from './helpers';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port || 6379), u.hostname);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

const hasRedis = await reachable(REDIS_URL);
const name = `rpc:api-key:invalidate:test:${process.pid}:${Date.now()}`;

describe.skipIf(!hasRedis)('Redis invalidation channel', () => {
  const db = new Map<string, TKeyInfo>();
  const gatewaySide = new RedisInvalidationChannel(REDIS_URL, name);
  const consoleSide = new RedisInvalidationChannel(REDIS_URL, name);
  const store = new CachedKeyStore(
    { loadAll: async () => [...db.values()], loadOne: async (id) => db.get(id) },
    gatewaySide,
  );

  beforeAll(async () => {
    await Promise.all([gatewaySide.start(), consoleSide.start()]);
    await store.start();
  });
  afterAll(async () => {
    store.stop();
    await Promise.all([gatewaySide.close(), consoleSide.close()]);
  });

  it('a key created, paused and deleted in another process takes effect within one second', async () => {
    const k = makeKey();
    const waitFor = async (pred: () => boolean) => {
      const t0 = performance.now();
      while (!pred() && performance.now() - t0 < 1000) await sleep(5);
      expect(pred()).toBe(true);
      return performance.now() - t0;
    };
    db.set(k.keyId, k);
    await consoleSide.publish(k.keyId);
    expect(await waitFor(() => store.get(k.key) !== undefined)).toBeLessThan(1000);

    db.set(k.keyId, { ...k, paused: true });
    await consoleSide.publish(k.keyId);
    expect(await waitFor(() => store.get(k.key)?.paused === true)).toBeLessThan(1000);

    db.delete(k.keyId);
    await consoleSide.publish(k.keyId);
    expect(await waitFor(() => store.get(k.key) === undefined)).toBeLessThan(1000);
  });
});
