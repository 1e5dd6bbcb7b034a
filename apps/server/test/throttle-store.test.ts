/** The database throttle store (the default without Redis): atomic counts on both databases, and counters that outlive a restart. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ERROR_CODES } from '@rpc/contract';
import { openDatabase, throttleCounters, type TOpenedDatabase } from '@rpc/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDbThrottleStore } from '../src/throttle/db-store';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, createTestClock, digest, uniqueEmail } from './helpers/harness';

describe.each(TEST_DATABASES)('database throttle store on $name', ({ open }) => {
  let database: TOpenedDatabase;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('counts concurrent hits exactly once each and starts a new window after the old one', async () => {
    const clock = createTestClock();
    const store = createDbThrottleStore({ db: database.db, clock });
    const hits = await Promise.all(Array.from({ length: 20 }, () => store.hit('k1', 1000)));
    expect(hits.map((x) => x.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(new Set(hits.map((x) => x.resetAt))).toEqual(new Set([clock.now() + 1000]));
    clock.advance(999);
    expect(await store.hit('k1', 1000)).toEqual({ count: 21, resetAt: clock.now() + 1 });
    clock.advance(1);
    expect(await store.hit('k1', 1000)).toEqual({ count: 1, resetAt: clock.now() + 1000 });
  });

  it('forgets a key on reset and sweeps finished windows', async () => {
    const clock = createTestClock();
    const store = createDbThrottleStore({ db: database.db, clock });
    await store.hit('gone', 60_000);
    await store.hit('gone', 60_000);
    await store.reset('gone');
    expect((await store.hit('gone', 60_000)).count).toBe(1);

    await store.hit('short', 10);
    clock.advance(120_000);
    await store.hit('other', 60_000);
    const keys = (await database.db.select({ key: throttleCounters.key }).from(throttleCounters))
      .map((r) => r.key)
      .filter((k) => ['gone', 'short', 'other'].includes(k));
    expect(keys).toEqual(['other']);
  });
});

describe('throttles of the embedded default', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'throttle-restart-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('survive a restart: a locked-out (e-mail, IP) stays locked with the same reset time', async () => {
    const openOnDisk = () => openDatabase({ dataDir });
    const email = uniqueEmail();
    const ip = '203.0.113.90';
    const login = (h: Awaited<ReturnType<typeof createHarness>>) =>
      h.call('hub_login', { email, password: digest('guess') }, { ip });

    const before = await createHarness(openOnDisk);
    let limited;
    try {
      for (let i = 0; i < 11; i++) limited = await login(before);
      expect(limited!.error).toMatchObject({ code: ERROR_CODES.RATE_LIMITED, limitType: 'type1' });
    } finally {
      await before.close();
    }

    const after = await createHarness(openOnDisk);
    try {
      const again = await login(after);
      expect(again.error).toMatchObject({
        code: ERROR_CODES.RATE_LIMITED,
        attemptsExpireAt: limited!.error!.attemptsExpireAt,
      });
      // Another IP is not held: only the counters that were full came back.
      expect(
        (await after.call('hub_login', { email, password: digest('guess') })).error?.code,
      ).toBe(ERROR_CODES.BAD_CREDENTIALS);
    } finally {
      await after.close();
    }
  });
});
