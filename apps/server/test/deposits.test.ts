/** Crypto deposit methods on each test database: addresses, lists, hiding, and bad input that writes nothing. */
import { randomUUID } from 'node:crypto';
import { ERROR_CODES } from '@rpc/contract';
import { depositAddresses, deposits, users } from '@rpc/db';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deriveAddress,
  LOCALNET_TEST_XPUB,
  parseXpub,
} from '../src/services/deposits/derive-address';
import type { TDepositSettings } from '../src/services/deposits/deposit-settings';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, type THarness } from './helpers/harness';

const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const coin = (c: string, contract: string | null, decimals: number, cents: number) => ({
  coin: c,
  name: c,
  contract,
  decimals,
  usdCentsPerCoin: cents,
  minDeposit: 1n,
});
/** Two chains with one xpub (no node behind them: these tests never run the watcher). */
const SETTINGS: TDepositSettings = {
  chains: [
    {
      chain: 'localnet',
      chainName: 'Localnet (Hardhat)',
      rpcUrl: 'http://127.0.0.1:1',
      xpub: LOCALNET_TEST_XPUB,
      confirmations: 2,
      reorgDepth: 16,
      startWindow: 64,
      maxBlocksPerTick: 500,
      coins: [coin('ETH', null, 18, 300_000), coin('USDT', TOKEN, 6, 100)],
    },
    {
      chain: 'ethereum',
      chainName: 'Ethereum',
      rpcUrl: 'http://127.0.0.1:1',
      xpub: LOCALNET_TEST_XPUB,
      confirmations: 12,
      reorgDepth: 64,
      startWindow: 32,
      maxBlocksPerTick: 50,
      coins: [coin('USDC', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', 6, 100)],
    },
  ],
};

describe.each(TEST_DATABASES)('crypto deposits on $name', ({ open }) => {
  let h: THarness;
  let off: THarness;
  beforeAll(async () => {
    [h, off] = await Promise.all([
      createHarness(open, { deposits: SETTINGS, depositWatcher: false }),
      createHarness(open, { deposits: { chains: [] }, depositWatcher: false }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([h?.close(), off?.close()]);
  });

  async function user(harness = h) {
    const s = await harness.signUp();
    const [u] = await harness.database.db.select().from(users).where(eq(users.email, s.email));
    return { token: s.token, accountId: u!.personalAccountId };
  }
  const db = () => h.database.db;
  const rowCount = async () => {
    const [a] = await db().select({ n: count() }).from(depositAddresses);
    const [d] = await db().select({ n: count() }).from(deposits);
    return { addresses: a!.n, deposits: d!.n };
  };

  it('hub_getWalletCoinList lists every usable coin with its chain; empty when not configured', async () => {
    const u = await user();
    const res = await h.call('hub_getWalletCoinList', {}, { token: u.token });
    expect(res.result?.list.map((c) => `${c.chain}:${c.coin}`)).toEqual([
      'localnet:ETH',
      'localnet:USDT',
      'ethereum:USDC',
    ]);
    expect(res.result?.list[1]).toMatchObject({
      contract: TOKEN,
      decimals: 6,
      confirmations: 2,
      minDeposit: '1',
      usdCentsPerCoin: 100,
      chainName: 'Localnet (Hardhat)',
    });
    const o = await user(off);
    expect((await off.call('hub_getWalletCoinList', {}, { token: o.token })).result).toEqual({
      list: [],
    });
    expect((await h.call('hub_getWalletCoinList', {})).error?.code).toBe(
      ERROR_CODES.SESSION_MISSING,
    );
  });

  it('hub_getDepositAddress: one address per account, the same on every chain of one xpub, derived from it', async () => {
    const a = await user();
    const b = await user();
    const a1 = await h.call('hub_getDepositAddress', { chain: 'localnet' }, { token: a.token });
    const a2 = await h.call('hub_getDepositAddress', { chain: 'localnet' }, { token: a.token });
    const aEth = await h.call('hub_getDepositAddress', { chain: 'ethereum' }, { token: a.token });
    const b1 = await h.call('hub_getDepositAddress', { chain: 'ethereum' }, { token: b.token });
    expect(a1.result).toEqual({
      chain: 'localnet',
      address: a1.result!.address,
      coins: ['ETH', 'USDT'],
    });
    expect(a2.result?.address).toBe(a1.result?.address);
    expect(aEth.result).toEqual({
      chain: 'ethereum',
      address: a1.result!.address,
      coins: ['USDC'],
    });
    expect(b1.result?.address).not.toBe(a1.result?.address);
    const rows = await db()
      .select()
      .from(depositAddresses)
      .where(eq(depositAddresses.accountId, a.accountId));
    expect(rows).toHaveLength(2);
    const key = parseXpub(LOCALNET_TEST_XPUB);
    for (const r of rows) expect(r.address).toBe(deriveAddress(key, r.derivationIndex));
    const list = await h.call('hub_getDepositAddressList', {}, { token: a.token });
    expect(list.result?.list).toEqual([
      { chain: 'ethereum', address: a1.result!.address, coins: ['USDC'] },
      { chain: 'localnet', address: a1.result!.address, coins: ['ETH', 'USDT'] },
    ]);
    const listB = await h.call('hub_getDepositAddressList', {}, { token: b.token });
    expect(listB.result?.list.map((l) => l.chain)).toEqual(['ethereum']);
  });

  it('gives concurrent first requests of many accounts distinct indexes, one row each', async () => {
    const accounts = await Promise.all(Array.from({ length: 6 }, () => user()));
    const answers = await Promise.all(
      accounts.flatMap((acc) =>
        ['localnet', 'ethereum', 'localnet'].map((chain) =>
          h.call('hub_getDepositAddress', { chain }, { token: acc.token }),
        ),
      ),
    );
    expect(answers.every((r) => r.ok)).toBe(true);
    const perAccount = accounts.map(
      (_, i) => new Set(answers.slice(i * 3, i * 3 + 3).map((r) => r.result!.address)),
    );
    expect(perAccount.every((s) => s.size === 1)).toBe(true);
    expect(new Set(perAccount.map((s) => [...s][0])).size).toBe(accounts.length);
    const all = await db().select().from(depositAddresses);
    const indexOf = new Map<string, number>();
    for (const r of all) {
      // one index per account, never shared
      expect(indexOf.get(r.accountId) ?? r.derivationIndex).toBe(r.derivationIndex);
      indexOf.set(r.accountId, r.derivationIndex);
    }
    expect(new Set(indexOf.values()).size).toBe(indexOf.size);
  });

  it.each([
    ['a chain without coins', { chain: 'polygon' }, ERROR_CODES.DEPOSIT_CHAIN_UNSUPPORTED],
    ['an unknown chain', { chain: 'nope' }, ERROR_CODES.DEPOSIT_CHAIN_UNSUPPORTED],
    ['a number', { chain: 1 }, ERROR_CODES.INVALID_PARAMS],
    ['an empty chain', { chain: '' }, ERROR_CODES.INVALID_PARAMS],
    ['a huge chain', { chain: 'x'.repeat(65) }, ERROR_CODES.INVALID_PARAMS],
    ['no chain', {}, ERROR_CODES.INVALID_PARAMS],
    ['an array', [], ERROR_CODES.INVALID_PARAMS],
  ])('hub_getDepositAddress with %s: %s, nothing written', async (_, params, code) => {
    const u = await user();
    const before = await rowCount();
    const res = await h.raw({ method: 'hub_getDepositAddress', params, id: 1 }, { token: u.token });
    expect(res.error?.code).toBe(code);
    expect(await rowCount()).toEqual(before);
  });

  it('hub_getDepositAddress when deposits are not configured: 10707', async () => {
    const u = await user(off);
    const res = await off.call('hub_getDepositAddress', { chain: 'localnet' }, { token: u.token });
    expect(res.error?.code).toBe(ERROR_CODES.DEPOSITS_NOT_CONFIGURED);
  });

  /** Rows as the watcher writes them, for the read methods. */
  async function seed(accountId: string, rows: Array<Partial<typeof deposits.$inferInsert>>) {
    return db()
      .insert(deposits)
      .values(
        rows.map((r, i) => ({
          accountId,
          chain: 'localnet',
          coin: 'USDT',
          txHash: `0x${randomUUID().replaceAll('-', '')}${'0'.repeat(32)}`,
          logIndex: i,
          blockNumber: 10 + i,
          blockHash: `0x${'ab'.repeat(32)}`,
          fromAddress: null,
          toAddress: '0x0000000000000000000000000000000000000001',
          amount: '12500000',
          usdCents: 1250,
          ...r,
        })),
      )
      .returning();
  }

  it('hub_getWalletDeposit: credited only, own only, paged and sorted; card is empty', async () => {
    const u = await user();
    const other = await user();
    const t0 = Date.UTC(2025, 0, 1);
    await seed(u.accountId, [
      { status: 'confirmed', creditedAt: new Date(t0 + 1000), amount: '1000000', usdCents: 100 },
      { status: 'confirmed', creditedAt: new Date(t0 + 3000), amount: '3000000', usdCents: 300 },
      {
        status: 'confirmed',
        creditedAt: new Date(t0 + 2000),
        coin: 'ETH',
        logIndex: -1,
        amount: '500000000000000000',
        usdCents: 150_000,
      },
      { status: 'pending' },
      { status: 'orphaned' },
    ]);
    await seed(other.accountId, [{ status: 'confirmed', creditedAt: new Date(t0) }]);
    const page1 = await h.call(
      'hub_getWalletDeposit',
      { page: 1, perPage: 2, sort: 'desc' },
      { token: u.token },
    );
    expect(page1.result).toMatchObject({ total: 3, page: 1, perPage: 2 });
    expect(page1.result!.list.map((d) => d.usdCents)).toEqual([300, 150_000]);
    expect(page1.result!.list[1]).toMatchObject({
      coin: 'ETH',
      coinAmount: '0.5',
      logIndex: -1,
      status: 'confirmed',
      channel: 'crypto',
      requiredConfirmations: 2,
    });
    const page2 = await h.call(
      'hub_getWalletDeposit',
      { page: 2, perPage: 2, sort: 'desc', channel: 'crypto' },
      { token: u.token },
    );
    expect(page2.result!.list.map((d) => [d.usdCents, d.coinAmount])).toEqual([[100, '1']]);
    const asc = await h.call(
      'hub_getWalletDeposit',
      { sort: 'asc', perPage: 10 },
      { token: u.token },
    );
    expect(asc.result!.list.map((d) => d.usdCents)).toEqual([100, 150_000, 300]);
    const card = await h.call('hub_getWalletDeposit', { channel: 'card' }, { token: u.token });
    expect(card.result).toMatchObject({ list: [], total: 0 });
    const far = await h.call('hub_getWalletDeposit', { page: 100_000 }, { token: u.token });
    expect(far.result).toMatchObject({ list: [], total: 3, page: 100_000 });
  });

  it.each([
    [{ page: 0 }],
    [{ page: -1 }],
    [{ page: 100_001 }],
    [{ page: 1e300 }],
    [{ page: '1' }],
    [{ page: 1.5 }],
    [{ perPage: 0 }],
    [{ perPage: 101 }],
    [{ sort: 'sideways' }],
    [{ channel: 'cobo' }],
  ])('hub_getWalletDeposit refuses %j with 10004', async (params) => {
    const u = await user();
    const res = await h.raw({ method: 'hub_getWalletDeposit', params, id: 1 }, { token: u.token });
    expect(res.error?.code).toBe(ERROR_CODES.INVALID_PARAMS);
  });

  it('pending list and hiding: own pending only; another account, unknown, credited or malformed ids change nothing', async () => {
    const u = await user();
    const other = await user();
    const [shown, toHide, credited] = await seed(u.accountId, [
      { status: 'pending', blockNumber: 5 },
      { status: 'pending', blockNumber: 6 },
      { status: 'confirmed', creditedAt: new Date() },
      { status: 'orphaned' },
    ]);
    const [theirs] = await seed(other.accountId, [{ status: 'pending' }]);
    const pending = await h.call('hub_getWalletDepositPending', {}, { token: u.token });
    expect(new Set(pending.result!.list.map((d) => d.id))).toEqual(
      new Set([shown!.id, toHide!.id]),
    );
    expect(pending.result!.list[0]).toMatchObject({ status: 'pending', coinAmount: '12.5' });

    const hide = await h.call(
      'hub_delWalletDepositPending',
      { id: toHide!.id },
      { token: u.token },
    );
    expect(hide.result).toEqual({ success: true });
    const after = await h.call('hub_getWalletDepositPending', {}, { token: u.token });
    expect(after.result!.list.map((d) => d.id)).toEqual([shown!.id]);

    for (const id of [theirs!.id, randomUUID(), credited!.id]) {
      const res = await h.call('hub_delWalletDepositPending', { id }, { token: u.token });
      expect(res.error?.code).toBe(ERROR_CODES.NOT_FOUND);
    }
    const [theirsNow] = await db().select().from(deposits).where(eq(deposits.id, theirs!.id));
    expect(theirsNow?.hidden).toBe(false);
    for (const id of ['nope', 42, null]) {
      const res = await h.raw(
        { method: 'hub_delWalletDepositPending', params: { id }, id: 1 },
        { token: u.token },
      );
      expect(res.error?.code).toBe(ERROR_CODES.INVALID_PARAMS);
    }
    const theirList = await h.call('hub_getWalletDepositPending', {}, { token: other.token });
    expect(theirList.result!.list.map((d) => d.id)).toEqual([theirs!.id]);
  });
});
