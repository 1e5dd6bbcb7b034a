/**
 * Wallet, packages and pay-as-you-go on each test database: purchases from the wallet (idempotent, never below
 * zero), the catalogue, history filters, discount codes, the monthly free SKU, usage spent from packages oldest
 * expiry first and then billed to pay-as-you-go exactly, expiry and auto-renewal, and bad input that writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { ERROR_CODES } from '@rpc/contract';
import {
  accounts,
  discountCodes,
  moneyLedger,
  notices,
  purchases,
  ruPackages,
  users,
  type TDatabase,
} from '@rpc/db';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedRuBalance, ledgerBalance } from '../src/services/ledger/append-ru-ledger';
import { getWalletOverview } from '../src/services/wallet/get-wallet-overview';
import { grantPackage } from '../src/services/wallet/grant-package';
import { ledgerWalletCents, postMoney } from '../src/services/wallet/post-money';
import { renewPackage, sweepPackages } from '../src/services/wallet/sweep-packages';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, digest, type THarness } from './helpers/harness';
import { writeTestUsage } from './helpers/usage';

const GIFT = 1_000_000;
const DAY = 86_400_000;

describe.each(TEST_DATABASES)('wallet on $name', ({ open }) => {
  let h: THarness;
  let db: TDatabase;
  beforeAll(async () => {
    h = await createHarness(open);
    db = h.database.db;
  });
  afterAll(async () => {
    await h?.close();
  });

  async function user() {
    const s = await h.signUp();
    const [u] = await db.select().from(users).where(eq(users.email, s.email));
    return {
      token: s.token,
      email: s.email,
      password: s.password,
      userId: u!.id,
      accountId: u!.personalAccountId,
    };
  }

  /**
   * Moves the clock to `at` and signs `u` in again: a jump to next month's claim can be longer than a session
   * (SESSION_TTL_MS, 30 days: a claim at the start of a 31-day month), and the old token has then expired.
   */
  async function advanceAndSignIn(
    u: { email: string; password: string; token: string },
    at: number,
  ) {
    h.clock.advance(at - h.clock.now());
    const login = await h.call('hub_login', { email: u.email, password: digest(u.password) });
    if (!login.ok) throw new Error(`login failed: ${JSON.stringify(login.error)}`);
    u.token = login.result.token;
  }

  /** Money arrives as a deposit would: one idempotent ledger credit. */
  async function credit(accountId: string, cents: number, ref = randomUUID()) {
    await db.transaction((tx) =>
      postMoney(tx, { accountId, delta: cents, kind: 'deposit', ref, at: h.clock.now() }),
    );
  }

  const usage = (accountId: string, ru: number) => writeTestUsage(db, accountId, ru, h.clock.now());

  async function withKey() {
    const u = await user();
    const key = await h.call('hub_generateApiKey', { name: 'k' }, { token: u.token });
    if (!key.ok) throw new Error(JSON.stringify(key.error));
    return u;
  }

  async function overview(token: string) {
    const res = await h.call('hub_getUserWalletOverview', {}, { token });
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    return res.result;
  }

  async function expectLedgersTrue(accountId: string) {
    const [a] = await db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(await ledgerWalletCents(db, accountId)).toBe(a!.walletCents);
    expect(await ledgerBalance(db, accountId)).toBe(a!.ruBalance);
    const pkgs = await db
      .select()
      .from(ruPackages)
      .where(and(eq(ruPackages.accountId, accountId), eq(ruPackages.status, 'active')));
    // RUs left in active packages are the RU balance whenever it is positive.
    expect(pkgs.reduce((s, p) => s + p.ruTotal - p.ruUsed, 0)).toBe(Math.max(a!.ruBalance, 0));
  }

  it('starts with an empty wallet and the register gift as a package that never expires', async () => {
    const u = await user();
    const w = await overview(u.token);
    expect(w).toMatchObject({
      amount: '0.00',
      amountCents: 0,
      arrears: '0.00',
      ruLeft: GIFT,
      tier: 'free',
      isPaygActive: false,
    });
    expect(w.packages).toHaveLength(1);
    expect(w.packages[0]).toMatchObject({ type: 'free', ruTotal: GIFT, expiresAt: null });
    await expectLedgersTrue(u.accountId);
  });

  it('lists the catalogue with its version', async () => {
    const u = await user();
    const res = await h.call('hub_getSkuList', {}, { token: u.token });
    expect(res.ok).toBe(true);
    expect(res.result!.version).toBe(h.server.deps.skus.version);
    expect(res.result!.list.map((s) => s.id)).toContain('standard-100m');
  });

  it('refuses a purchase the wallet cannot pay and writes nothing', async () => {
    const u = await user();
    const res = await h.call(
      'hub_buyPackage',
      { skuId: 'standard-100m', idempotencyKey: randomUUID() },
      { token: u.token },
    );
    expect(res.error?.code).toBe(ERROR_CODES.INSUFFICIENT_BALANCE);
    expect(await db.select().from(purchases).where(eq(purchases.accountId, u.accountId))).toEqual(
      [],
    );
    expect(await ledgerWalletCents(db, u.accountId)).toBe(0);
  });

  it('buys a package: pays once, credits RUs, raises the tier and says so', async () => {
    const u = await user();
    await credit(u.accountId, 10_000);
    const quote = await h.call(
      'hub_skuFirstConfirm',
      { skuId: 'standard-100m' },
      { token: u.token },
    );
    expect(quote.result).toMatchObject({
      priceCents: 4900,
      payCents: 4900,
      walletCents: 10_000,
      walletAfterCents: 5100,
      canPay: true,
      isFirstPurchase: true,
      tierBefore: 'free',
      tierAfter: 'elementary',
    });
    const key = randomUUID();
    const params = { skuId: 'standard-100m', idempotencyKey: key, expectedPayCents: 4900 };
    const first = await h.call('hub_buyPackage', params, { token: u.token });
    expect(first.ok).toBe(true);
    expect(first.result!.wallet).toMatchObject({
      amount: '51.00',
      tier: 'elementary',
      ruLeft: GIFT + 100_000_000,
    });
    // The same request again (a retry after a lost answer) is the same purchase, paid once.
    const again = await h.call('hub_buyPackage', params, { token: u.token });
    expect(again.result!.purchase.id).toBe(first.result!.purchase.id);
    expect((await overview(u.token)).amountCents).toBe(5100);
    // The same key for another SKU is refused.
    const other = await h.call(
      'hub_buyPackage',
      { skuId: 'standard-500m', idempotencyKey: key },
      { token: u.token },
    );
    expect(other.error?.code).toBe(ERROR_CODES.IDEMPOTENCY_KEY_REUSED);
    const [account] = await db.select().from(accounts).where(eq(accounts.id, u.accountId));
    expect(account!.tier).toBe('elementary');
    const types = (
      await db
        .select({ type: notices.type })
        .from(notices)
        .where(eq(notices.accountId, u.accountId))
    ).map((n) => n.type);
    expect(types.filter((t) => t === 'buy_package')).toHaveLength(1);
    const history = await h.call(
      'hub_getViewUserPurchaseInfo',
      { page: 1, perPage: 5, channel: 'crypto', packageType: 'standard' },
      { token: u.token },
    );
    expect(history.result!.total).toBe(1);
    const card = await h.call(
      'hub_getViewUserPurchaseInfo',
      { channel: 'card' },
      { token: u.token },
    );
    expect(card.result!.total).toBe(0);
    await expectLedgersTrue(u.accountId);
  });

  it('refuses a price that changed since the confirmation', async () => {
    const u = await user();
    await credit(u.accountId, 10_000);
    const res = await h.call(
      'hub_buyPackage',
      { skuId: 'standard-100m', idempotencyKey: randomUUID(), expectedPayCents: 4000 },
      { token: u.token },
    );
    expect(res.error?.code).toBe(ERROR_CODES.PRICE_CHANGED);
    expect((await overview(u.token)).amountCents).toBe(10_000);
  });

  describe('bad input changes nothing', () => {
    const cases: [string, string, unknown, number][] = [
      ['unknown SKU', 'hub_buyPackage', { skuId: 'nope', idempotencyKey: 'abcdefgh1' }, 10702],
      ['enterprise', 'hub_buyPackage', { skuId: 'enterprise', idempotencyKey: 'abcdefgh2' }, 10702],
      [
        'free via buy',
        'hub_buyPackage',
        { skuId: 'free-monthly', idempotencyKey: 'abcdefgh3' },
        10702,
      ],
      ['short key', 'hub_buyPackage', { skuId: 'standard-100m', idempotencyKey: 'abc' }, 10004],
      [
        'hostile key',
        'hub_buyPackage',
        { skuId: 'standard-100m', idempotencyKey: "x'; drop--" },
        10004,
      ],
      [
        'negative price',
        'hub_buyPackage',
        { skuId: 'standard-100m', idempotencyKey: 'abcdefgh4', expectedPayCents: -1 },
        10004,
      ],
      [
        'huge price',
        'hub_buyPackage',
        { skuId: 'standard-100m', idempotencyKey: 'abcdefgh5', expectedPayCents: 1e300 },
        10004,
      ],
      [
        'fraction price',
        'hub_buyPackage',
        { skuId: 'standard-100m', idempotencyKey: 'abcdefgh6', expectedPayCents: 1.5 },
        10004,
      ],
      ['missing SKU', 'hub_buyPackage', { idempotencyKey: 'abcdefgh7' }, 10004],
      ['SKU as number', 'hub_skuFirstConfirm', { skuId: 7 }, 10004],
      ['oversize SKU', 'hub_skuFirstConfirm', { skuId: 'a'.repeat(10_000) }, 10004],
      ['unknown free SKU', 'hub_getFreeSkuBuyFreeType', { skuId: 'standard-100m' }, 10702],
      ['bad package id', 'hub_setUserAutoRenew', { packageId: 'x', autoRenew: true }, 10004],
      [
        'unknown package',
        'hub_setUserAutoRenew',
        { packageId: randomUUID(), autoRenew: true },
        50404,
      ],
      ['page 0', 'hub_getViewUserPurchaseInfo', { page: 0 }, 10004],
      ['huge page size', 'hub_getViewUsedInfo', { perPage: 1000 }, 10004],
      ['bad channel', 'hub_getViewUserPurchaseInfo', { channel: 'paypal' }, 10004],
      ['bad type', 'hub_getViewUsedInfo', { packageType: 'gold' }, 10004],
      ['bad sort', 'hub_getViewUsedInfo', { sort: 'sideways' }, 10004],
      ['bad code', 'hub_setUserDiscountCode', { code: '<script>' }, 10004],
      ['unknown code', 'hub_setUserDiscountCode', { code: 'NOPE-1234' }, 10704],
    ];
    it.each(cases)('%s', async (_name, method, params, code) => {
      const u = await user();
      await credit(u.accountId, 1_000_000);
      const before = await db
        .select()
        .from(moneyLedger)
        .where(eq(moneyLedger.accountId, u.accountId));
      const res = await h.raw({ method, params, id: 1 }, { token: u.token });
      expect(res.error?.code).toBe(code);
      expect(
        await db.select().from(moneyLedger).where(eq(moneyLedger.accountId, u.accountId)),
      ).toEqual(before);
      expect(await db.select().from(purchases).where(eq(purchases.accountId, u.accountId))).toEqual(
        [],
      );
    });

    it("another account's package is not found", async () => {
      const a = await user();
      const b = await user();
      const [pkg] = await db.select().from(ruPackages).where(eq(ruPackages.accountId, a.accountId));
      const res = await h.call(
        'hub_setUserAutoRenew',
        { packageId: pkg!.id, autoRenew: false },
        { token: b.token },
      );
      expect(res.error?.code).toBe(ERROR_CODES.NOT_FOUND);
    });

    it('asks for a session', async () => {
      const res = await h.call('hub_getUserWalletOverview', {});
      expect(res.error?.code).toBe(ERROR_CODES.SESSION_MISSING);
    });
  });

  it('spends the package that expires first, then the next, keeping both ledgers true', async () => {
    const u = await withKey();
    await credit(u.accountId, 100_000);
    const bought = await h.call(
      'hub_buyPackage',
      { skuId: 'standard-100m', idempotencyKey: randomUUID() },
      { token: u.token },
    );
    expect(bought.ok).toBe(true);
    await usage(u.accountId, 60_000_000);
    let pkgs = (await overview(u.token)).packages;
    expect(pkgs.map((p) => [p.skuId, p.ruLeft])).toEqual([
      ['standard-100m', 40_000_000],
      ['register-gift', GIFT],
    ]);
    await usage(u.accountId, 40_500_000); // drains the bought one, then 500,000 of the gift
    pkgs = (await overview(u.token)).packages;
    expect(pkgs.map((p) => [p.skuId, p.ruLeft])).toEqual([['register-gift', 500_000]]);
    const used = await h.call('hub_getViewUsedInfo', { status: 'exhausted' }, { token: u.token });
    expect(used.result!.list.map((p) => p.skuId)).toEqual(['standard-100m']);
    await expectLedgersTrue(u.accountId);
  });

  it('bills RUs beyond the packages to pay-as-you-go exactly, into arrears up to its limit', async () => {
    const u = await withKey();
    await credit(u.accountId, 100); // $1
    const payg = await h.call(
      'hub_buyPackage',
      { skuId: 'payg', idempotencyKey: randomUUID() },
      { token: u.token },
    );
    expect(payg.ok).toBe(true);
    expect(payg.result!.wallet).toMatchObject({ isPaygActive: true, tier: 'elementary' });
    // $5 per million RU: $1 + $10 arrears limit buys 2.2M RU beyond the packages.
    const [a0] = await db.select().from(accounts).where(eq(accounts.id, u.accountId));
    expect(a0!.paygAllowanceRu).toBe(2_200_000);
    await usage(u.accountId, GIFT + 300_001); // the gift, then 300,001 RU at $5/M = 150.0005 cents
    const [a1] = await db.select().from(accounts).where(eq(accounts.id, u.accountId));
    expect(a1!.ruBalance).toBe(0);
    expect(a1!.walletCents).toBe(100 - 150);
    expect(a1!.paygCarryMicroCents).toBe(500); // the half-thousandth of a cent waits for the next bill
    const w = await overview(u.token);
    expect(w).toMatchObject({ amount: '0.00', arrears: '0.50', ruLeft: 0 });
    await usage(u.accountId, 99_999); // + 49.9995 cents + the carried 0.0005 = exactly 50 cents
    const [a2] = await db.select().from(accounts).where(eq(accounts.id, u.accountId));
    expect(a2!.walletCents).toBe(-100);
    expect(a2!.paygCarryMicroCents).toBe(0);
    expect(a2!.paygAllowanceRu).toBe(1_800_000);
    await expectLedgersTrue(u.accountId);
    // The sweep says the wallet is low, once a day.
    await sweepPackages(h.server.deps);
    await sweepPackages(h.server.deps);
    const lows = await db
      .select()
      .from(notices)
      .where(and(eq(notices.accountId, u.accountId), eq(notices.type, 'low_balance')));
    expect(lows).toHaveLength(1);
    expect(lows[0]!.expand).toMatchObject({ amount: '-1.00' });
  });

  it('expires packages with a moved clock, renews those with auto-renew once, and says when it cannot', async () => {
    const u = await withKey();
    await credit(u.accountId, 4900 * 2 + 100);
    const a = await h.call(
      'hub_buyPackage',
      { skuId: 'standard-100m', idempotencyKey: randomUUID(), autoRenew: true },
      { token: u.token },
    );
    expect(a.result!.package.autoRenew).toBe(true);
    // The sweep covers every account; other tests' packages expire here too, so count this account's rows.
    const bought = async () =>
      (await db.select().from(purchases).where(eq(purchases.accountId, u.accountId))).length;
    h.clock.advance(31 * DAY);
    expect((await sweepPackages(h.server.deps)).renewed).toBeGreaterThanOrEqual(1);
    expect(await bought()).toBe(2);
    await sweepPackages(h.server.deps);
    expect(await bought()).toBe(2);
    // Sessions last 30 days: read the wallet the way the method does, at the moved clock.
    const wallet = () => getWalletOverview(db, { accountId: u.accountId, now: h.clock.now() });
    let w = await wallet();
    expect(w.amountCents).toBe(100);
    expect(w.packages.map((p) => p.skuId)).toEqual(['standard-100m', 'register-gift']);
    expect(w.tier).toBe('elementary');
    // The renewal renews itself too, but $1 left cannot pay for it.
    h.clock.advance(31 * DAY);
    expect((await sweepPackages(h.server.deps)).renewFailed).toBeGreaterThanOrEqual(1);
    expect(await bought()).toBe(2);
    w = await wallet();
    expect(w.packages.map((p) => p.skuId)).toEqual(['register-gift']);
    expect(w.tier).toBe('free');
    const types = (
      await db
        .select({ type: notices.type })
        .from(notices)
        .where(eq(notices.accountId, u.accountId))
    ).map((n) => n.type);
    expect(types).toEqual(
      expect.arrayContaining(['expired', 'auto_renew_success', 'auto_renew_off']),
    );
    await expectLedgersTrue(u.accountId);
  });

  it('does not renew a package whose auto-renew was turned off after the sweep read it', async () => {
    const u = await withKey();
    await credit(u.accountId, 4900 * 2);
    const a = await h.call(
      'hub_buyPackage',
      { skuId: 'standard-100m', idempotencyKey: randomUUID(), autoRenew: true },
      { token: u.token },
    );
    const pkgId = a.result!.package.id;
    await usage(u.accountId, 100_000_000);
    // The row as the sweep read it: used up, auto-renew on.
    const [seen] = await db.select().from(ruPackages).where(eq(ruPackages.id, pkgId));
    expect(seen).toMatchObject({ status: 'exhausted', autoRenew: true, renewedBy: null });
    // Then the user turns auto-renew off, before the sweep gets to this package.
    const off = await h.call(
      'hub_setUserAutoRenew',
      { packageId: pkgId, autoRenew: false },
      { token: u.token },
    );
    expect(off.ok).toBe(true);
    expect(await renewPackage(h.server.deps, seen!, h.clock.now())).toBe('skipped');
    const bought = await db.select().from(purchases).where(eq(purchases.accountId, u.accountId));
    expect(bought).toHaveLength(1);
    const [pkg] = await db.select().from(ruPackages).where(eq(ruPackages.id, pkgId));
    expect(pkg).toMatchObject({ autoRenew: false, renewedBy: null });
  });

  it('renews a used-up auto-renew package from the wallet once, and a second sweep does nothing more', async () => {
    const u = await withKey();
    await credit(u.accountId, 4900 * 2 + 50);
    const a = await h.call(
      'hub_buyPackage',
      { skuId: 'standard-100m', idempotencyKey: randomUUID(), autoRenew: true },
      { token: u.token },
    );
    expect(a.result!.package.autoRenew).toBe(true);
    const firstId = a.result!.package.id;
    // Spent to the last RU long before it expires: the bought package goes first, the gift stays whole.
    await usage(u.accountId, 100_000_000);
    const [used] = await db.select().from(ruPackages).where(eq(ruPackages.id, firstId));
    expect(used).toMatchObject({ status: 'exhausted', ruUsed: 100_000_000, renewedBy: null });

    const ownRows = async () => ({
      purchases: await db.select().from(purchases).where(eq(purchases.accountId, u.accountId)),
      debits: await db
        .select()
        .from(moneyLedger)
        .where(and(eq(moneyLedger.accountId, u.accountId), eq(moneyLedger.kind, 'purchase'))),
      renewedNotices: await db
        .select()
        .from(notices)
        .where(and(eq(notices.accountId, u.accountId), eq(notices.type, 'auto_renew_success'))),
    });
    // The sweep covers every account (other tests' packages too): the count is at least this one.
    expect((await sweepPackages(h.server.deps)).renewed).toBeGreaterThanOrEqual(1);
    const after = await ownRows();
    expect(after.purchases).toHaveLength(2);
    const renewal = after.purchases.find((p) => p.reason === 'auto_renew')!;
    expect(renewal).toMatchObject({
      skuId: 'standard-100m',
      requestKey: `renew:${firstId}`,
      userId: null,
      paidCents: 4900,
      ru: 100_000_000,
    });
    // The wallet paid it: one more purchase debit, referencing the renewal.
    expect(after.debits.map((d) => d.delta)).toEqual([-4900, -4900]);
    expect(after.debits.filter((d) => d.ref === renewal.id)).toHaveLength(1);
    const [old] = await db.select().from(ruPackages).where(eq(ruPackages.id, firstId));
    expect(old!.renewedBy).toBe(renewal.packageId);
    const [fresh] = await db.select().from(ruPackages).where(eq(ruPackages.id, renewal.packageId));
    expect(fresh).toMatchObject({
      accountId: u.accountId,
      skuId: 'standard-100m',
      status: 'active',
      ruTotal: 100_000_000,
      ruUsed: 0,
      autoRenew: true,
      renewedBy: null,
    });
    expect(after.renewedNotices).toHaveLength(1);
    expect(after.renewedNotices[0]).toMatchObject({ userId: u.userId, accountId: u.accountId });
    expect(after.renewedNotices[0]!.expand).toMatchObject({
      skuName: '100M RUs',
      amount: 100_000_000,
      usdAmount: '49.00',
    });
    let w = await getWalletOverview(db, { accountId: u.accountId, now: h.clock.now() });
    expect(w).toMatchObject({ amountCents: 50, ruLeft: GIFT + 100_000_000, tier: 'elementary' });

    // A second sweep finds the used-up package renewed already: nothing more is bought or said.
    await sweepPackages(h.server.deps);
    const again = await ownRows();
    expect(again.purchases).toHaveLength(2);
    expect(again.debits).toHaveLength(2);
    expect(again.renewedNotices).toHaveLength(1);
    w = await getWalletOverview(db, { accountId: u.accountId, now: h.clock.now() });
    expect(w.amountCents).toBe(50);
    await expectLedgersTrue(u.accountId);
  });

  it('warns once a day when a package runs low (ru_pkg_running_out)', async () => {
    const u = await withKey();
    await credit(u.accountId, 4900);
    const bought = await h.call(
      'hub_buyPackage',
      { skuId: 'standard-100m', idempotencyKey: randomUUID() },
      { token: u.token },
    );
    expect(bought.ok).toBe(true);
    const runningOut = () =>
      db
        .select()
        .from(notices)
        .where(and(eq(notices.accountId, u.accountId), eq(notices.type, 'ru_pkg_running_out')));
    await usage(u.accountId, 89_000_000); // 11% left: not low yet
    await sweepPackages(h.server.deps);
    expect(await runningOut()).toEqual([]);

    await usage(u.accountId, 6_000_000); // 5,000,000 of 100,000,000 left: at or under 10%
    await sweepPackages(h.server.deps);
    await sweepPackages(h.server.deps);
    const rows = await runningOut();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: u.userId, accountId: u.accountId });
    expect(rows[0]!.expand).toEqual({ skuName: '100M RUs', amount: 5_000_000 });
    expect(rows[0]!.content).toContain('5,000,000 RU left');

    // The next day it says so again, still once.
    h.clock.advance(DAY + 1);
    await sweepPackages(h.server.deps);
    await sweepPackages(h.server.deps);
    expect(await runningOut()).toHaveLength(2);
    await expectLedgersTrue(u.accountId);
  });

  it("an operator's grant gives an enterprise or credit package once per reference", async () => {
    const u = await user();
    const grant = (type: 'enterprise' | 'standard', ref: string) =>
      grantPackage(db, {
        accountId: u.accountId,
        ref,
        type,
        name: { en: 'Enterprise (test)', zh: '企业版（测试）' },
        ru: 5_000_000,
        validityDays: 90,
        tier: 'premium',
        now: h.clock.now(),
      });
    const ref = randomUUID();
    expect((await grant('enterprise', ref)).isNew).toBe(true);
    expect((await grant('enterprise', ref)).isNew).toBe(false);
    expect((await grant('standard', randomUUID())).isNew).toBe(true);
    const info = await h.call('hub_getEnterpriseInfo', {}, { token: u.token });
    expect(info.result!.packages).toHaveLength(1);
    expect(info.result!.packages[0]).toMatchObject({ ruTotal: 5_000_000, tier: 'premium' });
    const w = await overview(u.token);
    expect(w).toMatchObject({ tier: 'premium', amountCents: 0, ruLeft: GIFT + 10_000_000 });
    const types = (
      await db
        .select({ type: notices.type })
        .from(notices)
        .where(eq(notices.accountId, u.accountId))
    ).map((n) => n.type);
    expect(types.filter((t) => t === 'message_enterprise_package_send')).toHaveLength(1);
    expect(types.filter((t) => t === 'credit_package_sent')).toHaveLength(1);
    await expectLedgersTrue(u.accountId);
  });

  it('grants the monthly free SKU once per calendar month', async () => {
    const u = await user();
    const first = await h.call(
      'hub_getFreeSkuBuyFreeType',
      { skuId: 'free-monthly' },
      { token: u.token },
    );
    expect(first.result!.claimed).toBe(true);
    const second = await h.call(
      'hub_getFreeSkuBuyFreeType',
      { skuId: 'free-monthly' },
      { token: u.token },
    );
    expect(second.result!.claimed).toBe(false);
    expect(second.result!.package.id).toBe(first.result!.package.id);
    await advanceAndSignIn(u, second.result!.nextClaimAt + 1);
    const next = await h.call(
      'hub_getFreeSkuBuyFreeType',
      { skuId: 'free-monthly' },
      { token: u.token },
    );
    expect(next.result!.claimed).toBe(true);
    await expectLedgersTrue(u.accountId);
  });

  it('the monthly free claim raises monthly_gift once per claim', async () => {
    const u = await user();
    const claim = () =>
      h.call('hub_getFreeSkuBuyFreeType', { skuId: 'free-monthly' }, { token: u.token });
    const gifts = () =>
      db
        .select()
        .from(notices)
        .where(and(eq(notices.accountId, u.accountId), eq(notices.type, 'monthly_gift')));
    const first = await claim();
    expect(first.result!.claimed).toBe(true);
    expect((await claim()).result!.claimed).toBe(false);
    let rows = await gifts();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: u.userId, accountId: u.accountId });
    expect(rows[0]!.expand).toEqual({
      skuName: 'Monthly free RUs',
      name: 'Monthly free RUs',
      amount: 50_000_000,
      usdAmount: '0.00',
      timeStamp: first.result!.package.expiresAt,
    });
    // Next month's claim is a new gift and a new notice; its replay again says nothing.
    await advanceAndSignIn(u, first.result!.nextClaimAt + 1);
    expect((await claim()).result!.claimed).toBe(true);
    expect((await claim()).result!.claimed).toBe(false);
    rows = await gifts();
    expect(rows).toHaveLength(2);
  });

  it('applies a discount code to one purchase', async () => {
    const code = `TEST-${randomUUID().slice(0, 8).toUpperCase()}`;
    await db.insert(discountCodes).values({ code, percentOff: 20, skuIds: ['standard-100m'] });
    const u = await user();
    await credit(u.accountId, 20_000);
    const set = await h.call(
      'hub_setUserDiscountCode',
      { code: code.toLowerCase() },
      { token: u.token },
    );
    expect(set.result).toMatchObject({ code, percentOff: 20, usedAt: null });
    const other = await h.call(
      'hub_skuFirstConfirm',
      { skuId: 'standard-500m' },
      { token: u.token },
    );
    expect(other.result!.discountCents).toBe(0);
    const quote = await h.call(
      'hub_skuFirstConfirm',
      { skuId: 'standard-100m' },
      { token: u.token },
    );
    expect(quote.result).toMatchObject({ discountCents: 980, payCents: 3920, discountCode: code });
    const bought = await h.call(
      'hub_buyPackage',
      { skuId: 'standard-100m', idempotencyKey: randomUUID(), expectedPayCents: 3920 },
      { token: u.token },
    );
    expect(bought.result!.purchase).toMatchObject({ paidCents: 3920, discountCents: 980 });
    const detail = await h.call('hub_getUserDiscountCodeDetail', {}, { token: u.token });
    expect(detail.result!.usedAt).not.toBeNull();
    const reuse = await h.call('hub_setUserDiscountCode', { code }, { token: u.token });
    expect(reuse.error?.code).toBe(ERROR_CODES.DISCOUNT_CODE_USED);
    const next = await h.call(
      'hub_skuFirstConfirm',
      { skuId: 'standard-100m' },
      { token: u.token },
    );
    expect(next.result!.discountCents).toBe(0);
    await expectLedgersTrue(u.accountId);
  });

  it('1,000 concurrent purchases on one wallet: exact balance, never negative, replays applied once', async () => {
    const u = await user();
    const deposit = 4900 * 7 + 123;
    await credit(u.accountId, deposit);
    const keys = Array.from({ length: 500 }, () => randomUUID());
    // Every key sent twice at once: 1,000 requests, 500 distinct purchases asked for.
    const results = await Promise.all(
      [...keys, ...keys].map((idempotencyKey) =>
        h.call('hub_buyPackage', { skuId: 'standard-100m', idempotencyKey }, { token: u.token }),
      ),
    );
    const ok = results.filter((r) => r.ok);
    const refused = results.filter((r) => !r.ok);
    expect(refused.every((r) => r.error!.code === ERROR_CODES.INSUFFICIENT_BALANCE)).toBe(true);
    const bought = new Set(ok.map((r) => r.result!.purchase.id));
    expect(bought.size).toBe(7);
    const rows = await db.select().from(purchases).where(eq(purchases.accountId, u.accountId));
    expect(rows).toHaveLength(7);
    const w = await overview(u.token);
    expect(w.amountCents).toBe(deposit - 7 * 4900);
    expect(w.ruLeft).toBe(GIFT + 7 * 100_000_000);
    await expectLedgersTrue(u.accountId);
    // And across every account this file touched: each cache equals its ledger.
    const mismatched = await db.execute(sql`
      select a.id from accounts a
      left join (select account_id, sum(delta) s from money_ledger group by account_id) m on m.account_id = a.id
      where a.wallet_cents <> coalesce(m.s, 0)`);
    const list = Array.isArray(mismatched) ? mismatched : (mismatched as { rows: unknown[] }).rows;
    expect(list).toEqual([]);
    expect(await cachedRuBalance(db, u.accountId)).toBe(await ledgerBalance(db, u.accountId));
  });
});
