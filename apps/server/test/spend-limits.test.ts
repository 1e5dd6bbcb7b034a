/**
 * Monthly spend limits on each test database: alerts once per threshold and month, a 'stop' limit that zeroes what
 * the gateway may spend in the usage batch's own transaction, lifted by a higher cap or a new month, and bad input
 * that changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { accounts, notices, spendableRu, spendLimits, users, type TDatabase } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postMoney } from '../src/services/wallet/post-money';
import { sweepPackages } from '../src/services/wallet/sweep-packages';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, type THarness } from './helpers/harness';
import { writeTestUsage } from './helpers/usage';

describe.each(TEST_DATABASES)('spend limits on $name', ({ open }) => {
  let h: THarness;
  let db: TDatabase;
  beforeAll(async () => {
    h = await createHarness(open);
    db = h.database.db;
  });
  afterAll(async () => {
    await h?.close();
  });

  async function userWithKey() {
    const s = await h.signUp();
    const [u] = await db.select().from(users).where(eq(users.email, s.email));
    const key = await h.call('hub_generateApiKey', { name: 'k' }, { token: s.token });
    if (!key.ok) throw new Error(JSON.stringify(key.error));
    return { token: s.token, accountId: u!.personalAccountId };
  }

  async function spendable(accountId: string) {
    const [a] = await db
      .select({ ru: spendableRu })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    return a!.ru;
  }

  async function warnings(accountId: string) {
    return db
      .select({ title: notices.title })
      .from(notices)
      .where(and(eq(notices.accountId, accountId), eq(notices.type, 'normal_warn')));
  }

  it('has no limits until set, and shows this month so far', async () => {
    const u = await userWithKey();
    await writeTestUsage(db, u.accountId, 1234, h.clock.now());
    const res = await h.call('hub_getSpendLimits', {}, { token: u.token });
    expect(res.result).toMatchObject({
      monthlyRuCap: null,
      monthlyCentsCap: null,
      action: 'alert',
      blockedUntil: null,
      month: { ruUsed: 1234, centsSpent: 0 },
    });
  });

  it('alerts once per threshold, stops at the cap in the batch that reaches it, and a higher cap lifts it', async () => {
    const u = await userWithKey();
    const set = await h.call(
      'hub_setSpendLimits',
      { monthlyRuCap: 1000, monthlyCentsCap: null, action: 'stop', alertPercents: [100, 50, 50] },
      { token: u.token },
    );
    expect(set.result).toMatchObject({ alertPercents: [50, 100], blockedUntil: null });
    await writeTestUsage(db, u.accountId, 600, h.clock.now());
    expect(await spendable(u.accountId)).toBeGreaterThan(0);
    await sweepPackages(h.server.deps);
    await sweepPackages(h.server.deps);
    expect((await warnings(u.accountId)).map((n) => n.title)).toEqual(['Monthly limit: 50% used']);

    await writeTestUsage(db, u.accountId, 400, h.clock.now());
    expect(await spendable(u.accountId)).toBe(0); // stopped with the batch's commit
    await sweepPackages(h.server.deps);
    expect((await warnings(u.accountId)).map((n) => n.title)).toContain(
      'Monthly limit reached: keys stopped',
    );
    const view = await h.call('hub_getSpendLimits', {}, { token: u.token });
    expect(view.result!.blockedUntil).toBeGreaterThan(h.clock.now());

    const raised = await h.call(
      'hub_setSpendLimits',
      { monthlyRuCap: 5000, monthlyCentsCap: null, action: 'stop', alertPercents: [50, 100] },
      { token: u.token },
    );
    expect(raised.result!.blockedUntil).toBeNull();
    expect(await spendable(u.accountId)).toBeGreaterThan(0);
  });

  it('an alert-only limit never stops; a new month lifts a stop', async () => {
    const u = await userWithKey();
    await h.call(
      'hub_setSpendLimits',
      { monthlyRuCap: 100, monthlyCentsCap: null, action: 'alert', alertPercents: [100] },
      { token: u.token },
    );
    await writeTestUsage(db, u.accountId, 500, h.clock.now());
    expect(await spendable(u.accountId)).toBeGreaterThan(0);

    await h.call(
      'hub_setSpendLimits',
      { monthlyRuCap: 100, monthlyCentsCap: null, action: 'stop', alertPercents: [100] },
      { token: u.token },
    );
    expect(await spendable(u.accountId)).toBe(0);
    const [limit] = await db
      .select()
      .from(spendLimits)
      .where(eq(spendLimits.accountId, u.accountId));
    expect(limit!.action).toBe('stop');
    const d = new Date(h.clock.now());
    h.clock.advance(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - h.clock.now() + 1000);
    await sweepPackages(h.server.deps);
    expect(await spendable(u.accountId)).toBeGreaterThan(0);
  });

  it('a money cap counts purchases and stops at it', async () => {
    const u = await userWithKey();
    await db.transaction((tx) =>
      postMoney(tx, {
        accountId: u.accountId,
        delta: 10_000,
        kind: 'deposit',
        ref: randomUUID(),
        at: h.clock.now(),
      }),
    );
    await h.call(
      'hub_setSpendLimits',
      { monthlyRuCap: null, monthlyCentsCap: 4000, action: 'stop', alertPercents: [80] },
      { token: u.token },
    );
    const bought = await h.call(
      'hub_buyPackage',
      { skuId: 'standard-100m', idempotencyKey: randomUUID() },
      { token: u.token },
    );
    expect(bought.ok).toBe(true);
    await sweepPackages(h.server.deps);
    const view = await h.call('hub_getSpendLimits', {}, { token: u.token });
    expect(view.result).toMatchObject({ month: { centsSpent: 4900 } });
    expect(view.result!.blockedUntil).not.toBeNull();
    expect(await spendable(u.accountId)).toBe(0);
  });

  it.each([
    ['percent 0', { monthlyRuCap: 1, monthlyCentsCap: null, action: 'stop', alertPercents: [0] }],
    [
      'percent 101',
      { monthlyRuCap: 1, monthlyCentsCap: null, action: 'stop', alertPercents: [101] },
    ],
    [
      'six alerts',
      { monthlyRuCap: 1, monthlyCentsCap: null, action: 'stop', alertPercents: [1, 2, 3, 4, 5, 6] },
    ],
    [
      'negative cap',
      { monthlyRuCap: -5, monthlyCentsCap: null, action: 'stop', alertPercents: [] },
    ],
    [
      'fraction cap',
      { monthlyRuCap: 1.5, monthlyCentsCap: null, action: 'stop', alertPercents: [] },
    ],
    ['huge cap', { monthlyRuCap: 1e300, monthlyCentsCap: null, action: 'stop', alertPercents: [] }],
    [
      'unknown action',
      { monthlyRuCap: 1, monthlyCentsCap: null, action: 'pause', alertPercents: [] },
    ],
    ['missing fields', {}],
  ])('refuses %s and stores nothing', async (_name, params) => {
    const u = await userWithKey();
    const res = await h.raw({ method: 'hub_setSpendLimits', params, id: 1 }, { token: u.token });
    expect(res.error?.code).toBe(10004);
    expect(
      await db.select().from(spendLimits).where(eq(spendLimits.accountId, u.accountId)),
    ).toEqual([]);
  });
});
