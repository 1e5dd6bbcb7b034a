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
import { subjectOf } from './helpers/smtp';
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

  async function userWithKey(language?: 'en' | 'zh') {
    const s = await h.signUp(language ? { language } : {});
    const [u] = await db.select().from(users).where(eq(users.email, s.email));
    const key = await h.call('hub_generateApiKey', { name: 'k' }, { token: s.token });
    if (!key.ok) throw new Error(JSON.stringify(key.error));
    return { token: s.token, email: s.email, accountId: u!.personalAccountId };
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

  /** The mails to `email` after the first `skip`, once one has come (notice mail is sent in the background). */
  async function mailsAfter(email: string, skip: number) {
    const deadline = Date.now() + 5000;
    while (h.smtp.countTo(email) <= skip && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    return h.smtp.mails.filter((m) => m.to.includes(email.toLowerCase())).slice(skip);
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

  it.each([
    {
      language: 'en',
      subject: '[Notice] Monthly limit: 50% used',
      intro: 'You have a new notice in the RPC Console.',
      link: 'http://console.test/rpc/notifications',
      foreign: '您有一条新通知',
    },
    {
      language: 'zh',
      // The frame is Chinese; the notice's own title and text are the server's English for now.
      subject: '[通知]',
      intro: '您有一条新通知。',
      link: 'http://console.test/zh/rpc/notifications',
      foreign: 'You have a new notice',
    },
  ] as const)(
    "mails the alert once to the account's user, in the user's language ($language)",
    async ({ language, subject, intro, link, foreign }) => {
      const u = await userWithKey(language);
      const before = h.smtp.countTo(u.email);
      await h.call(
        'hub_setSpendLimits',
        { monthlyRuCap: 1000, monthlyCentsCap: null, action: 'alert', alertPercents: [50] },
        { token: u.token },
      );
      await writeTestUsage(db, u.accountId, 600, h.clock.now());
      await sweepPackages(h.server.deps);
      await sweepPackages(h.server.deps);
      expect((await warnings(u.accountId)).map((n) => n.title)).toEqual([
        'Monthly limit: 50% used',
      ]);
      const mails = await mailsAfter(u.email, before);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.to).toEqual([u.email.toLowerCase()]);
      expect(subjectOf(mail)).toContain(subject);
      expect(mail.text).toContain(intro);
      expect(mail.text).toContain(link);
      expect(mail.text).not.toContain(foreign);
      // The second sweep raised nothing, so nothing more is mailed.
      await new Promise((r) => setTimeout(r, 200));
      expect(h.smtp.countTo(u.email)).toBe(before + 1);
    },
  );

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
