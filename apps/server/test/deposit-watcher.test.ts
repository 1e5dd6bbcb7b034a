/**
 * The deposit watcher against a real Hardhat node, on each test database: a real ERC-20 and native ETH sent to
 * an account's address, credited once after N confirmations, across a watcher restart, a lost cursor, two
 * watchers racing, and a re-org (evm_snapshot / evm_revert) that orphans a deposit before it confirms.
 */
import {
  accounts,
  chainCursors,
  deposits,
  moneyLedger,
  notices,
  users,
  type TNoticeRow,
} from '@rpc/db';
import { loadChains, startLocalnet, withUpstreams, type TLocalnet } from '@rpc/gateway';
import { and, eq } from 'drizzle-orm';
import { parseEther, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDepositWatcher,
  type TDepositWatcher,
} from '../src/services/deposits/deposit-watcher';
import { loadDepositSettings } from '../src/services/deposits/deposit-settings';
import { ledgerWalletCents } from '../src/services/wallet/post-money';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, type THarness } from './helpers/harness';
import { freePort } from './helpers/net';
import { chainClients, deployTestUsd, TEST_USD_ABI } from './helpers/test-token';

const CONFIRMATIONS = 3;
const USDT = (n: number) => BigInt(n) * 1_000_000n;

describe.each(TEST_DATABASES)('deposit watcher on $name with a Hardhat node', ({ open }) => {
  let node: TLocalnet;
  let h: THarness;
  let token: Address;
  let chain: ReturnType<typeof chainClients>;
  const pushed: TNoticeRow[] = [];

  beforeAll(async () => {
    node = await startLocalnet({ port: await freePort() });
    token = await deployTestUsd(node.url, USDT(1_000_000));
    chain = chainClients(node.url);
    const chains = loadChains({}).map((c) =>
      c.id === 'localnet' ? withUpstreams(c, { full: [node.url] }) : c,
    );
    const settings = loadDepositSettings({
      chains,
      tokens: { 'localnet:USDT': token.toLowerCase() },
    });
    for (const c of settings.chains) c.confirmations = CONFIRMATIONS;
    h = await createHarness(open, { chains, deposits: settings, depositWatcher: false });
  });
  afterAll(async () => {
    await h?.close();
    await node?.stop();
  });

  /** A fresh watcher, as after a process restart: nothing but the database carries over. */
  const newWatcher = (): TDepositWatcher =>
    createDepositWatcher({
      ...h.server.deps,
      noticeBus: { push: (rows) => pushed.push(...rows), endSessions: () => {} },
    });

  async function accountWithAddress() {
    const s = await h.signUp();
    const [row] = await h.database.db
      .select({ id: users.personalAccountId })
      .from(users)
      .where(eq(users.email, s.email));
    const res = await h.call('hub_getDepositAddress', { chain: 'localnet' }, { token: s.token });
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    return { token: s.token, accountId: row!.id, address: res.result.address as Address };
  }

  async function sendToken(to: Address, amount: bigint) {
    const hash = await chain.wallet.writeContract({
      address: token,
      abi: TEST_USD_ABI,
      functionName: 'transfer',
      args: [to, amount],
    });
    return chain.pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  }

  const depositEntries = (accountId: string) =>
    h.database.db
      .select()
      .from(moneyLedger)
      .where(and(eq(moneyLedger.accountId, accountId), eq(moneyLedger.kind, 'deposit')));
  const walletCents = async (accountId: string) =>
    (await h.database.db.select().from(accounts).where(eq(accounts.id, accountId)))[0]!.walletCents;

  it('credits an ERC-20 deposit once after N confirmations, across a restart, a lost cursor and a race', async () => {
    const a = await accountWithAddress();
    let watcher = newWatcher();
    await watcher.tick(); // first start: cursor near the head
    const receipt = await sendToken(a.address, USDT(25));
    await watcher.tick();
    const pending = await h.call('hub_getWalletDepositPending', {}, { token: a.token });
    expect(pending.result?.list).toHaveLength(1);
    expect(pending.result!.list[0]).toMatchObject({
      coin: 'USDT',
      amount: '25000000',
      coinAmount: '25',
      usdCents: 2500,
      status: 'pending',
      txHash: receipt.transactionHash,
      toAddress: a.address,
      confirmations: 1,
      requiredConfirmations: CONFIRMATIONS,
    });

    await chain.mine(1);
    await watcher.tick(); // 2 of 3: still pending
    expect(await depositEntries(a.accountId)).toHaveLength(0);

    watcher = newWatcher(); // restart mid-way
    await chain.mine(1);
    const before = pushed.length;
    await Promise.all([watcher.tick(), newWatcher().tick()]); // and a second process racing it
    const entries = await depositEntries(a.accountId);
    expect(entries.map((e) => [e.delta, e.ref])).toEqual([
      [2500, `localnet:${receipt.transactionHash}:${receipt.logs[0]!.logIndex}`],
    ]);
    expect(await walletCents(a.accountId)).toBe(2500);
    expect(pushed.slice(before).map((n) => [n.type, n.accountId, n.expand])).toEqual([
      ['deposit', a.accountId, { coinAmount: '25', coin: 'USDT', usdAmount: '25.00' }],
    ]);

    // Lost cursor (re-scan from the start window) and a cursor on a block that is not canonical (re-org path).
    await h.database.db.delete(chainCursors);
    await newWatcher().tick();
    await h.database.db
      .update(chainCursors)
      .set({ blockHash: `0x${'00'.repeat(32)}` })
      .where(eq(chainCursors.chain, 'localnet'));
    await chain.mine(2);
    await newWatcher().tick();
    await newWatcher().tick();
    expect(await depositEntries(a.accountId)).toHaveLength(1);
    expect(await walletCents(a.accountId)).toBe(2500);
    const stored = await h.database.db
      .select()
      .from(notices)
      .where(and(eq(notices.accountId, a.accountId), eq(notices.type, 'deposit')));
    expect(stored).toHaveLength(1);

    const credited = await h.call('hub_getWalletDeposit', {}, { token: a.token });
    expect(credited.result?.list.map((d) => [d.status, d.usdCents, d.coinAmount])).toEqual([
      ['confirmed', 2500, '25'],
    ]);
    expect(
      (await h.call('hub_getWalletDepositPending', {}, { token: a.token })).result?.list,
    ).toEqual([]);
  });

  it('orphans a deposit whose block is re-orged away before it confirms, and never credits it', async () => {
    const a = await accountWithAddress();
    const watcher = newWatcher();
    await watcher.tick();
    const snapshot = await chain.rpc('evm_snapshot');
    await sendToken(a.address, USDT(7));
    await watcher.tick();
    expect(
      (await h.call('hub_getWalletDepositPending', {}, { token: a.token })).result?.list,
    ).toHaveLength(1);

    await chain.rpc('evm_revert', [snapshot]);
    await chain.mine(CONFIRMATIONS + 2); // a longer chain without the transfer
    await watcher.tick();
    await watcher.tick();
    const rows = await h.database.db
      .select()
      .from(deposits)
      .where(eq(deposits.accountId, a.accountId));
    expect(rows.map((r) => r.status)).toEqual(['orphaned']);
    expect(await depositEntries(a.accountId)).toHaveLength(0);
    expect(
      (await h.call('hub_getWalletDepositPending', {}, { token: a.token })).result?.list,
    ).toEqual([]);
    expect((await h.call('hub_getWalletDeposit', {}, { token: a.token })).result?.total).toBe(0);
  });

  it('credits native ETH (a successful transfer at or above the minimum) at the configured rate', async () => {
    const a = await accountWithAddress();
    const watcher = newWatcher();
    await watcher.tick();
    const from = chainClients(node.url, 1);
    const send = async (value: bigint) =>
      from.pub.waitForTransactionReceipt({
        hash: await from.wallet.sendTransaction({ to: a.address, value }),
        pollingInterval: 50,
      });
    const big = await send(parseEther('0.5'));
    await send(parseEther('0.0001')); // under minDeposit (0.001 ETH): not a deposit
    await chain.mine(CONFIRMATIONS);
    await watcher.tick();
    expect((await depositEntries(a.accountId)).map((e) => [e.delta, e.ref])).toEqual([
      [150_000, `localnet:${big.transactionHash}:-1`],
    ]);
    const list = await h.call('hub_getWalletDeposit', {}, { token: a.token });
    expect(list.result?.list.map((d) => [d.coin, d.coinAmount, d.logIndex])).toEqual([
      ['ETH', '0.5', -1],
    ]);
  });

  it('keeps every cached wallet equal to the sum of its money ledger', async () => {
    const all = await h.database.db
      .select({ id: accounts.id, wallet: accounts.walletCents })
      .from(accounts);
    expect(all.some((a) => a.wallet > 0)).toBe(true);
    for (const a of all) expect(await ledgerWalletCents(h.database.db, a.id)).toBe(a.wallet);
  });
});
