/** The Redis throttle store against the real Redis at 127.0.0.1:6379, and the console answering 10429 through it. */
import { randomBytes } from 'node:crypto';
import { ERROR_CODES } from '@rpc/contract';
import { openDatabase } from '@rpc/db';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisThrottleStore } from '../src/throttle/redis-store';
import {
  createHarness,
  createTestClock,
  digest,
  uniqueEmail,
  type THarness,
} from './helpers/harness';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<string | null> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    probe.disconnect();
  }
}

const unreachable = await redisReachable();
if (unreachable)
  console.warn(
    `[api tests] Redis throttle tests skipped: ${REDIS_URL} unreachable (${unreachable})`,
  );

describe.skipIf(unreachable !== null)('Redis throttle', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  const admin = new Redis(REDIS_URL);

  afterAll(async () => {
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length) await admin.del(...keys);
    await admin.quit();
  });

  it('counts atomically within a window and starts a new one after it', async () => {
    const clock = createTestClock();
    const store = createRedisThrottleStore({ url: REDIS_URL, clock, keyPrefix: prefix });
    try {
      const hits = await Promise.all(Array.from({ length: 20 }, () => store.hit('k1', 300)));
      expect(hits.map((x) => x.count).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
      for (const x of hits) {
        expect(x.resetAt).toBeGreaterThan(clock.now());
        expect(x.resetAt).toBeLessThanOrEqual(clock.now() + 300);
      }
      const ttl = await admin.pttl(`${prefix}k1`);
      expect(ttl).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 350));
      expect((await store.hit('k1', 300)).count).toBe(1);
    } finally {
      await store.close();
    }
  });

  describe('through the console', () => {
    let h: THarness;
    beforeAll(async () => {
      h = await createHarness(() => openDatabase({ dataDir: 'memory://' }), {
        env: { PORT: 0, REDIS_URL, LOG_LEVEL: 'silent' },
        redisKeyPrefix: prefix,
      });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('answers 10429 with limitType and attemptsExpireAt once Redis says the window is full', async () => {
      const email = uniqueEmail();
      const ip = '203.0.113.50';
      const results = [];
      for (let i = 0; i < 11; i++)
        results.push(await h.call('hub_login', { email, password: digest('x') }, { ip }));
      expect(results[9]!.error?.code).toBe(ERROR_CODES.BAD_CREDENTIALS);
      expect(results[10]!.error).toMatchObject({
        code: ERROR_CODES.RATE_LIMITED,
        limitType: 'type1',
      });
      expect(results[10]!.error!.attemptsExpireAt).toBeGreaterThan(Date.now());
      expect(await admin.get(`${prefix}login:emailIp:${email}|${ip}`)).toBe('11');
      expect(await admin.get(`${prefix}login:email:${email}`)).toBe('11');
      // A password reset lifts the per-address cap: its key is gone, the per-(address, IP) one stays.
      await h.server.deps.throttle.resetEmail({ action: 'login', email });
      expect(await admin.exists(`${prefix}login:email:${email}`)).toBe(0);
      expect(await admin.get(`${prefix}login:emailIp:${email}|${ip}`)).toBe('11');
    });
  });

  it('fails closed (10500, no stack) while Redis is unreachable', async () => {
    const down = await createHarness(() => openDatabase({ dataDir: 'memory://' }), {
      env: { PORT: 0, REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'silent' },
    });
    try {
      const res = await down.call('hub_login', { email: uniqueEmail(), password: digest('x') });
      expect(res.error?.code).toBe(ERROR_CODES.INTERNAL_ERROR);
      expect(JSON.stringify(res)).not.toContain('ECONNREFUSED');
      expect((await down.call('hub_getConfig')).ok).toBe(true);
    } finally {
      await down.close();
    }
  });
});
