/**
 * Money reports (issue 11): hub_reportUserPurchase and hub_reportUserDeposit on each test database. Purchases made
 * through hub_buyPackage at chosen clock times and deposit rows credited at chosen times come back exactly per
 * minute, hour and local day (UTC and Asia/Shanghai midnights), with totals; another account's money never
 * appears; a team's report follows X-Team-Id; bad input answers its catalogue code.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ERROR_CODES, type TParamsIn } from '@rpc/contract';
import { accountMembers, accounts, deposits, users, type TDatabase } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postMoney } from '../src/services/wallet/post-money';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, type THarness } from './helpers/harness';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STANDARD_100M_CENTS = 4900;

describe.each(TEST_DATABASES)('money reports on $name', ({ open }) => {
  let h: THarness;
  let db: TDatabase;
  /** a UTC midnight a few days after the clock's start: every test places its rows relative to it */
  let t0: number;
  beforeAll(async () => {
    h = await createHarness(open);
    db = h.database.db;
    const start = h.clock.now();
    t0 = Math.floor(start / DAY) * DAY + 2 * DAY;
    h.clock.advance(t0 - start);
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Moves the clock forward to t0 + offset. */
  function at(offset: number): number {
    const target = t0 + offset;
    if (target < h.clock.now()) throw new Error('the clock only moves forward');
    h.clock.advance(target - h.clock.now());
    return target;
  }

  async function user() {
    const s = await h.signUp();
    const [u] = await db.select().from(users).where(eq(users.email, s.email));
    return { token: s.token, userId: u!.id, accountId: u!.personalAccountId };
  }

  async function credit(accountId: string, cents: number) {
    await db.transaction((tx) =>
      postMoney(tx, {
        accountId,
        delta: cents,
        kind: 'adjustment',
        ref: randomUUID(),
        at: h.clock.now(),
      }),
    );
  }

  async function buy(token: string, skuId: string, teamId?: string) {
    const res = await h.call(
      'hub_buyPackage',
      { skuId, idempotencyKey: randomUUID() },
      { token, ...(teamId ? { teamId } : {}) },
    );
    if (!res.ok) throw new Error(`purchase failed: ${JSON.stringify(res.error)}`);
  }

  async function deposit(
    accountId: string,
    d: {
      coin: string;
      usdCents: number;
      creditedAt: number | null;
      status?: 'pending' | 'confirmed' | 'orphaned';
      chain?: string;
    },
  ) {
    await db.insert(deposits).values({
      accountId,
      chain: d.chain ?? 'localnet',
      coin: d.coin,
      txHash: `0x${randomBytes(32).toString('hex')}`,
      logIndex: 0,
      blockNumber: 1,
      blockHash: `0x${randomBytes(32).toString('hex')}`,
      toAddress: `0x${randomBytes(20).toString('hex')}`,
      amount: '1',
      usdCents: d.usdCents,
      status: d.status ?? 'confirmed',
      createdAt: new Date((d.creditedAt ?? h.clock.now()) - 10 * MINUTE),
      creditedAt: d.creditedAt === null ? null : new Date(d.creditedAt),
    });
  }

  type TRange = TParamsIn<'hub_reportUserPurchase'>;
  async function purchaseReport(token: string, params: TRange, teamId?: string) {
    const res = await h.call('hub_reportUserPurchase', params, {
      token,
      ...(teamId ? { teamId } : {}),
    });
    if (!res.ok) throw new Error(`report failed: ${JSON.stringify(res.error)}`);
    return res.result;
  }

  /** The series of one id, by bucket start: { bucketStart: cents } without the zero buckets. */
  function nonZero(
    r: { buckets: number[]; series: { id: string; data: number[] }[] },
    id: string,
  ): Record<number, number> {
    const s = r.series.find((x) => x.id === id);
    if (!s) return {};
    return Object.fromEntries(
      r.buckets.map((b, i) => [b, s.data[i] ?? 0] as const).filter(([, v]) => v !== 0),
    );
  }

  // One account buys at day D 15:30 and 16:30 UTC (23:30 on D and 00:30 on D+1 in Shanghai), and once more at 17:10
  // (pay-as-you-go, 0 cents). Another account buys at 16:45 and must never show up.
  let buyer: Awaited<ReturnType<typeof user>>;
  let other: Awaited<ReturnType<typeof user>>;
  beforeAll(async () => {
    buyer = await user();
    other = await user();
    await credit(buyer.accountId, 3 * STANDARD_100M_CENTS);
    await credit(other.accountId, STANDARD_100M_CENTS);
    at(15 * HOUR + 30 * MINUTE);
    await buy(buyer.token, 'standard-100m');
    at(16 * HOUR + 30 * MINUTE);
    await buy(buyer.token, 'standard-100m');
    at(16 * HOUR + 45 * MINUTE);
    await buy(other.token, 'standard-100m');
    at(17 * HOUR + 10 * MINUTE);
    await buy(buyer.token, 'payg');
  });

  it('hour buckets: cents per UTC hour, a series per package type, totals and count', async () => {
    const r = await purchaseReport(buyer.token, {
      from: t0 + 12 * HOUR,
      to: t0 + 20 * HOUR,
      bucket: 'hour',
    });
    // The end is cut at the bucket holding now (17:10).
    expect(r.from).toBe(t0 + 12 * HOUR);
    expect(r.to).toBe(t0 + 18 * HOUR);
    expect(r.buckets).toHaveLength(6);
    expect(r.series.map((s) => s.id)).toEqual(['total', 'standard', 'default']);
    expect(r.series[0]!.data).toEqual([0, 0, 0, STANDARD_100M_CENTS, STANDARD_100M_CENTS, 0]);
    expect(nonZero(r, 'standard')).toEqual({
      [t0 + 15 * HOUR]: STANDARD_100M_CENTS,
      [t0 + 16 * HOUR]: STANDARD_100M_CENTS,
    });
    expect(r.series.find((s) => s.id === 'default')!.data).toEqual([0, 0, 0, 0, 0, 0]);
    expect(r.totalCents).toBe(2 * STANDARD_100M_CENTS);
    expect(r.count).toBe(3);
  });

  it('minute buckets, and money needs no minute retention', async () => {
    const r = await purchaseReport(buyer.token, {
      from: t0 + 16 * HOUR,
      to: t0 + 17 * HOUR,
      bucket: 'minute',
    });
    expect(r.buckets).toHaveLength(60);
    expect(nonZero(r, 'total')).toEqual({ [t0 + 16 * HOUR + 30 * MINUTE]: STANDARD_100M_CENTS });
    // 20 days back by minute: usage reports answer 10604, money rows are kept.
    const old = await h.call(
      'hub_reportUserPurchase',
      { from: t0 - 20 * DAY, to: t0 - 20 * DAY + HOUR, bucket: 'minute' },
      { token: buyer.token },
    );
    expect(old.ok).toBe(true);
    expect(old.result!.totalCents).toBe(0);
    expect(old.result!.series).toEqual([{ id: 'total', name: 'Total', data: expect.any(Array) }]);
  });

  it('day buckets start at local midnight: UTC and Asia/Shanghai split the same purchases differently', async () => {
    const range = { from: t0 - DAY, to: t0 + 2 * DAY, bucket: 'day' as const };
    const utc = await purchaseReport(buyer.token, { ...range, timeZone: 'UTC' });
    expect(utc.buckets).toEqual([t0 - DAY, t0]);
    expect(utc.series[0]!.data).toEqual([0, 2 * STANDARD_100M_CENTS]);

    const sh = await purchaseReport(buyer.token, { ...range, timeZone: 'Asia/Shanghai' });
    // Shanghai midnights are 16:00 UTC; now (17:10 UTC) is already the next Shanghai day.
    expect(sh.buckets).toEqual([t0 - DAY - 8 * HOUR, t0 - 8 * HOUR, t0 + 16 * HOUR]);
    expect(sh.series[0]!.data).toEqual([0, STANDARD_100M_CENTS, STANDARD_100M_CENTS]);
    expect(sh.totalCents).toBe(utc.totalCents);
    expect(sh.count).toBe(3);
  });

  it('another account sees only its own purchases', async () => {
    const r = await purchaseReport(other.token, {
      from: t0,
      to: t0 + DAY,
      bucket: 'hour',
    });
    expect(nonZero(r, 'total')).toEqual({ [t0 + 16 * HOUR]: STANDARD_100M_CENTS });
    expect(r.count).toBe(1);
    const empty = await purchaseReport((await user()).token, {
      from: t0,
      to: t0 + DAY,
      bucket: 'day',
    });
    expect(empty).toMatchObject({ totalCents: 0, count: 0 });
    expect(empty.series.map((s) => s.id)).toEqual(['total']);
  });

  it('deposits: confirmed ones by credit time and coin; pending, orphaned and other accounts never', async () => {
    const u = await user();
    const now = h.clock.now();
    const hourOfNow = Math.floor(now / HOUR) * HOUR;
    await deposit(u.accountId, { coin: 'USDT', usdCents: 1000, creditedAt: hourOfNow - 2 * HOUR });
    await deposit(u.accountId, {
      coin: 'USDT',
      usdCents: 250,
      creditedAt: hourOfNow - 2 * HOUR + 5 * MINUTE,
    });
    await deposit(u.accountId, {
      coin: 'ETH',
      usdCents: 4321,
      creditedAt: hourOfNow + MINUTE,
      chain: 'ethereum',
    });
    await deposit(u.accountId, { coin: 'USDT', usdCents: 7, creditedAt: null, status: 'pending' });
    await deposit(u.accountId, {
      coin: 'USDT',
      usdCents: 9,
      creditedAt: hourOfNow - HOUR,
      status: 'orphaned',
    });
    // Before the range, and another account's.
    await deposit(u.accountId, { coin: 'USDT', usdCents: 11, creditedAt: hourOfNow - 30 * HOUR });
    await deposit(other.accountId, { coin: 'USDT', usdCents: 13, creditedAt: hourOfNow - HOUR });

    const res = await h.call(
      'hub_reportUserDeposit',
      { from: hourOfNow - 3 * HOUR, to: hourOfNow + HOUR, bucket: 'hour' },
      { token: u.token },
    );
    expect(res.ok).toBe(true);
    const r = res.result!;
    expect(r.buckets).toEqual([
      hourOfNow - 3 * HOUR,
      hourOfNow - 2 * HOUR,
      hourOfNow - HOUR,
      hourOfNow,
    ]);
    expect(r.series).toEqual([
      { id: 'total', name: 'Total', data: [0, 1250, 0, 4321] },
      { id: 'ETH', name: 'ETH', data: [0, 0, 0, 4321] },
      { id: 'USDT', name: 'USDT', data: [0, 1250, 0, 0] },
    ]);
    expect(r).toMatchObject({ totalCents: 5571, count: 3 });

    // One network only.
    const onLocalnet = await h.call(
      'hub_reportUserDeposit',
      { from: hourOfNow - 3 * HOUR, to: hourOfNow + HOUR, bucket: 'hour', chain: 'localnet' },
      { token: u.token },
    );
    expect(onLocalnet.result).toMatchObject({ totalCents: 1250, count: 2 });
    expect(onLocalnet.result!.series.map((s) => s.id)).toEqual(['total', 'USDT']);

    // Day buckets: the 30-hours-old deposit is in the day before.
    const days = await h.call(
      'hub_reportUserDeposit',
      { from: hourOfNow - 3 * DAY, to: hourOfNow + HOUR, bucket: 'day' },
      { token: u.token },
    );
    expect(days.result!.totalCents).toBe(5571 + 11);
    expect(days.result!.count).toBe(4);
  });

  it('a team’s report follows X-Team-Id; the owner’s personal report and outsiders do not see it', async () => {
    const owner = await user();
    const outsider = await user();
    const [team] = await db
      .insert(accounts)
      .values({ kind: 'team', name: 'Money team' })
      .returning({ id: accounts.id });
    await db
      .insert(accountMembers)
      .values({ accountId: team!.id, userId: owner.userId, role: 'owner' });
    await credit(team!.id, STANDARD_100M_CENTS);
    await buy(owner.token, 'standard-100m', team!.id);
    await deposit(team!.id, { coin: 'USDC', usdCents: 500, creditedAt: h.clock.now() });

    const range = { from: t0, to: h.clock.now() + HOUR, bucket: 'day' as const };
    const teamPurchases = await purchaseReport(owner.token, range, team!.id);
    expect(teamPurchases).toMatchObject({ totalCents: STANDARD_100M_CENTS, count: 1 });
    const teamDeposits = await h.call('hub_reportUserDeposit', range, {
      token: owner.token,
      teamId: team!.id,
    });
    expect(teamDeposits.result).toMatchObject({ totalCents: 500, count: 1 });

    const personal = await purchaseReport(owner.token, range);
    expect(personal).toMatchObject({ totalCents: 0, count: 0 });
    for (const method of ['hub_reportUserPurchase', 'hub_reportUserDeposit'] as const) {
      const res = await h.call(method, range, { token: outsider.token, teamId: team!.id });
      expect(res.error?.code).toBe(ERROR_CODES.TEAM_FORBIDDEN);
    }
  });

  describe('bad input answers its catalogue code', () => {
    const keyId = '00000000-0000-4000-8000-000000000000';
    const ok = (): TRange => ({ from: t0, to: t0 + HOUR, bucket: 'hour' });
    const cases: [string, () => Record<string, unknown>, number][] = [
      ['reversed range', () => ({ ...ok(), to: t0 - HOUR }), ERROR_CODES.REPORT_RANGE_REVERSED],
      ['empty range', () => ({ ...ok(), to: t0 }), ERROR_CODES.REPORT_RANGE_REVERSED],
      [
        'hour range over 31 days',
        () => ({ ...ok(), from: t0 - 32 * DAY }),
        ERROR_CODES.REPORT_RANGE_TOO_LONG,
      ],
      [
        'day range over 366 days',
        () => ({ from: t0 - 367 * DAY, to: t0, bucket: 'day' }),
        ERROR_CODES.REPORT_RANGE_TOO_LONG,
      ],
      [
        'range in the future',
        () => ({ ...ok(), from: t0 + 10 * DAY, to: t0 + 11 * DAY }),
        ERROR_CODES.REPORT_RANGE_IN_FUTURE,
      ],
      [
        'unknown time zone',
        () => ({ ...ok(), timeZone: 'Mars/Olympus' }),
        ERROR_CODES.REPORT_BAD_TIME_ZONE,
      ],
      [
        'offset instead of a zone name',
        () => ({ ...ok(), timeZone: '+08:00' }),
        ERROR_CODES.REPORT_BAD_TIME_ZONE,
      ],
      ['scope apikey', () => ({ ...ok(), scope: 'apikey', keyId }), ERROR_CODES.INVALID_PARAMS],
      ['a keyId alone', () => ({ ...ok(), keyId }), ERROR_CODES.INVALID_PARAMS],
      [
        'scope apikey without keyId',
        () => ({ ...ok(), scope: 'apikey' }),
        ERROR_CODES.INVALID_PARAMS,
      ],
      ['unknown bucket', () => ({ ...ok(), bucket: 'month' }), ERROR_CODES.INVALID_PARAMS],
      ['from as text', () => ({ ...ok(), from: String(t0) }), ERROR_CODES.INVALID_PARAMS],
    ];
    it.each(cases)('%s', async (_name, params, code) => {
      const { token } = await user();
      for (const method of ['hub_reportUserPurchase', 'hub_reportUserDeposit'] as const) {
        const res = await h.raw({ method, params: params(), id: 1 }, { token });
        expect(res.error?.code, method).toBe(code);
      }
    });

    it('a chain: refused for purchases (10004), checked for deposits (10606)', async () => {
      const { token } = await user();
      const purchase = await h.raw(
        { method: 'hub_reportUserPurchase', params: { ...ok(), chain: 'localnet' }, id: 1 },
        { token },
      );
      expect(purchase.error?.code).toBe(ERROR_CODES.INVALID_PARAMS);
      const deposit = await h.call(
        'hub_reportUserDeposit',
        { ...ok(), chain: 'no-such-chain' },
        {
          token,
        },
      );
      expect(deposit.error?.code).toBe(ERROR_CODES.REPORT_UNKNOWN_CHAIN);
    });

    it('without a session: 10101', async () => {
      for (const method of ['hub_reportUserPurchase', 'hub_reportUserDeposit'] as const) {
        expect((await h.call(method, ok())).error?.code).toBe(ERROR_CODES.SESSION_MISSING);
      }
    });
  });
});
