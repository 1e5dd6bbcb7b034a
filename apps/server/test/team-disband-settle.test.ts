/**
 * The settling sweep of disbanded teams (docs/decisions/teams.md): money that reaches a team after it was disbanded
 * (a deposit confirmed late, a direct credit) and arrears billed after it (the gateways' last usage batch) move to
 * the owner's personal account once the settling delay has passed, exactly once however many sweeps run, with a
 * notice in the owner's language; on each database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { NOTICE_TEXTS_EN } from '@rpc/contract/notice-texts/en';
import { NOTICE_TEXTS_ZH } from '@rpc/contract/notice-texts/zh';
import { renderNoticeText, type TNotice } from '@rpc/contract';
import { accounts, deposits, moneyLedger, users, type TDatabase } from '@rpc/db';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TChainReader } from '../src/services/deposits/chain-reader';
import type { TDepositChain } from '../src/services/deposits/deposit-settings';
import { settleDeposits } from '../src/services/deposits/settle-deposits';
import {
  DISBANDED_SETTLE_DELAY_MS,
  DISBANDED_SETTLE_SINCE_MS,
  settleDisbandedTeams,
} from '../src/services/teams/settle-disbanded-teams';
import { ledgerWalletCents, postMoney } from '../src/services/wallet/post-money';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, type THarness } from './helpers/harness';
import { writeTestUsage } from './helpers/usage';

describe.each(TEST_DATABASES)('settling disbanded teams on $name', ({ open }) => {
  let h: THarness;
  let db: TDatabase;
  beforeAll(async () => {
    h = await createHarness(open);
    db = h.database.db;
  });
  afterAll(async () => {
    await h?.close();
  });

  async function ok<T>(p: Promise<{ ok: boolean; result?: T; error?: unknown }>): Promise<T> {
    const res = await p;
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    return res.result as T;
  }

  async function user() {
    const s = await h.signUp();
    const [u] = await db.select().from(users).where(eq(users.email, s.email));
    return { ...s, userId: u!.id, accountId: u!.personalAccountId };
  }
  type TUser = Awaited<ReturnType<typeof user>>;

  /** A team of `owner` with one key (so usage can be billed to it), and the owner's token for it. */
  async function teamOf(owner: TUser, teamName = 'Gone soon') {
    const team = await ok(h.call('hub_createTeam', { teamName }, { token: owner.token }));
    await ok(
      h.call('hub_generateApiKey', { name: 'k' }, { token: owner.token, teamId: team.teamId }),
    );
    return team.teamId;
  }

  const disband = (owner: TUser, teamId: string) =>
    ok(h.call('hub_deleteTeam', { teamId }, { token: owner.token }));

  const post = (
    accountId: string,
    delta: number,
    kind: 'deposit' | 'adjustment' | 'card_payment',
  ) =>
    db.transaction((tx) =>
      postMoney(tx, { accountId, delta, kind, ref: `${kind}:${randomUUID()}`, at: h.clock.now() }),
    );

  async function wallet(accountId: string) {
    const [a] = await db
      .select({ cents: accounts.walletCents })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    // The cached balance is always its ledger's sum.
    expect(a!.cents).toBe(await ledgerWalletCents(db, accountId));
    return a!.cents;
  }

  /** The settling moves of a team: [account, delta, ref] of every entry, both sides. */
  async function settleMoves(teamId: string) {
    const rows = await db
      .select({ accountId: moneyLedger.accountId, delta: moneyLedger.delta, ref: moneyLedger.ref })
      .from(moneyLedger)
      .where(
        and(
          eq(moneyLedger.kind, 'team_transfer'),
          like(moneyLedger.ref, `disband-settle:${teamId}:%`),
        ),
      );
    return rows
      .map((r) => [r.accountId, r.delta, r.ref] as const)
      .sort((a, b) => a[2].localeCompare(b[2]) || a[1] - b[1]);
  }

  async function noticesOf(owner: TUser, type: 'normal_success' | 'normal_warn') {
    const res = await ok(
      h.call('hub_getUserMessages', { type, perPage: 100 }, { token: owner.token }),
    );
    return res.list;
  }

  /** What the console shows for a notice, in English and in Chinese (the web app and mails render it so). */
  function shown(n: TNotice) {
    const formatDateTime = (ms: number) => String(ms);
    return {
      en: renderNoticeText(n, { lang: 'en', texts: NOTICE_TEXTS_EN, formatDateTime }),
      zh: renderNoticeText(n, { lang: 'zh', texts: NOTICE_TEXTS_ZH, formatDateTime }),
    };
  }

  const sweep = () => settleDisbandedTeams(h.server.deps);

  /** A transfer to the team's deposit address, confirmed by the chain after the team was disbanded. */
  async function confirmLateDeposit(teamId: string, usdCents: number) {
    const chain = `settle-${randomBytes(4).toString('hex')}`;
    const blockHash = `0x${randomBytes(32).toString('hex')}`;
    await db.insert(deposits).values({
      accountId: teamId,
      chain,
      coin: 'USDT',
      txHash: `0x${randomBytes(32).toString('hex')}`,
      logIndex: 0,
      blockNumber: 100,
      blockHash,
      toAddress: `0x${randomBytes(20).toString('hex')}`,
      amount: String(usdCents * 10_000),
      usdCents,
    });
    const reader = { blockHash: async () => blockHash } as unknown as TChainReader;
    const depositChain = {
      chain,
      confirmations: 1,
      coins: [{ coin: 'USDT', decimals: 6 }],
    } as unknown as TDepositChain;
    const settled = await settleDeposits({
      db,
      reader,
      chain: depositChain,
      head: 100,
      now: h.clock.now(),
    });
    expect(settled.credited).toBe(1);
  }

  it('moves a deposit confirmed after disbanding to the owner once the delay has passed, not before', async () => {
    const owner = await user();
    const teamId = await teamOf(owner, 'Late deposit');
    await disband(owner, teamId);
    const personal = await wallet(owner.accountId);

    await confirmLateDeposit(teamId, 150);
    expect(await wallet(teamId)).toBe(150);
    // Within the delay the last usage may still come: nothing moves yet.
    await sweep();
    h.clock.advance(DISBANDED_SETTLE_DELAY_MS - 1);
    await sweep();
    expect(await wallet(teamId)).toBe(150);
    expect(await settleMoves(teamId)).toEqual([]);
    expect(await noticesOf(owner, 'normal_success')).toEqual([]);

    h.clock.advance(1);
    const first = await sweep();
    expect(first).toMatchObject({ settled: 1, creditedCents: 150, chargedCents: 0 });
    expect(await wallet(teamId)).toBe(0);
    expect(await wallet(owner.accountId)).toBe(personal + 150);
    const ref1 = `disband-settle:${teamId}:1`;
    expect(await settleMoves(teamId)).toEqual([
      [teamId, -150, ref1],
      [owner.accountId, 150, ref1],
    ]);
    const [told] = await noticesOf(owner, 'normal_success');
    expect(told).toMatchObject({
      title: 'Late payment to a disbanded team',
      expand: { textKey: 'team_late_credit_moved', usdAmount: '1.50', teamId },
    });
    expect(shown(told!)).toEqual({
      en: {
        title: 'Late payment to a disbanded team',
        content:
          '$1.50 reached the team Late deposit after it was disbanded (a deposit or card payment confirmed late) and is now in your personal wallet.',
      },
      zh: {
        title: '已解散团队的迟到款项',
        content:
          '团队 Late deposit 解散后到账的 $1.50（稍后确认的充值或银行卡付款）已转入您的个人钱包。',
      },
    });

    // Money arriving later still (a card payment settling days after) is moved by a later pass, with its own ref.
    h.clock.advance(3 * 86_400_000);
    await post(teamId, 2000, 'card_payment');
    expect(await sweep()).toMatchObject({ settled: 1, creditedCents: 2000 });
    expect(await wallet(teamId)).toBe(0);
    expect(await wallet(owner.accountId)).toBe(personal + 2150);
    const ref2 = `disband-settle:${teamId}:2`;
    expect(await settleMoves(teamId)).toEqual([
      [teamId, -150, ref1],
      [owner.accountId, 150, ref1],
      [teamId, -2000, ref2],
      [owner.accountId, 2000, ref2],
    ]);
    expect(await noticesOf(owner, 'normal_success')).toHaveLength(2);
  });

  it('charges arrears of usage billed after disbanding to the former owner', async () => {
    const owner = await user();
    const teamId = await teamOf(owner, 'Last batch');
    await post(teamId, 100, 'deposit');
    // Pay-as-you-go ($5 per million RU): usage beyond the team's RUs is billed to its wallet, into arrears.
    await ok(
      h.call(
        'hub_buyPackage',
        { skuId: 'payg', idempotencyKey: randomUUID() },
        { token: owner.token, teamId },
      ),
    );
    await disband(owner, teamId);
    // The $1 left moved at disbanding.
    expect(await wallet(teamId)).toBe(0);
    const personal = await wallet(owner.accountId);

    // The gateways' last flush: calls admitted before the key deletion reached them, billed after the move.
    await writeTestUsage(db, teamId, 300_000, h.clock.now());
    expect(await wallet(teamId)).toBe(-150);
    await sweep();
    expect(await wallet(teamId)).toBe(-150);

    h.clock.advance(DISBANDED_SETTLE_DELAY_MS);
    expect(await sweep()).toMatchObject({ settled: 1, creditedCents: 0, chargedCents: 150 });
    expect(await wallet(teamId)).toBe(0);
    expect(await wallet(owner.accountId)).toBe(personal - 150);
    const ref = `disband-settle:${teamId}:1`;
    expect(await settleMoves(teamId)).toEqual([
      [owner.accountId, -150, ref],
      [teamId, 150, ref],
    ]);
    const [told] = await noticesOf(owner, 'normal_warn');
    expect(told?.expand).toMatchObject({ textKey: 'team_late_usage_charged', usdAmount: '1.50' });
    expect(shown(told!)).toEqual({
      en: {
        title: "Disbanded team's last usage charged",
        content:
          "The team Last batch's last API calls, billed after it was disbanded, came to $1.50; this was charged to your personal wallet.",
      },
      zh: {
        title: '已解散团队的最后用量已扣款',
        content: '团队 Last batch 解散后结算的最后一批 API 调用共计 $1.50，已从您的个人钱包扣除。',
      },
    });
    // The balance moved at disbanding is told in both languages the same way.
    const moved = (await noticesOf(owner, 'normal_success')).find(
      (n) => n.expand.textKey === 'team_balance_moved',
    );
    expect(shown(moved!).zh.content).toBe(
      '团队 Last batch 已解散，其钱包中剩余的 $1.00 已转入您的个人钱包。',
    );
  });

  it('moves the money once however many sweeps run, one after another or at the same time', async () => {
    const owner = await user();
    const teamId = await teamOf(owner);
    await disband(owner, teamId);
    const personal = await wallet(owner.accountId);
    await post(teamId, 250, 'adjustment');
    h.clock.advance(DISBANDED_SETTLE_DELAY_MS);

    const together = await Promise.all([sweep(), sweep(), sweep(), sweep()]);
    expect(together.map((r) => r.settled).filter((n) => n > 0)).toEqual([1]);
    expect(await sweep()).toMatchObject({ settled: 0 });
    expect(await wallet(teamId)).toBe(0);
    expect(await wallet(owner.accountId)).toBe(personal + 250);
    const ref = `disband-settle:${teamId}:1`;
    expect(await settleMoves(teamId)).toEqual([
      [teamId, -250, ref],
      [owner.accountId, 250, ref],
    ]);
    expect(await noticesOf(owner, 'normal_success')).toHaveLength(1);
  });

  it('leaves a zero balance, a team still running and a personal wallet alone', async () => {
    const owner = await user();
    const gone = await teamOf(owner, 'Empty');
    await disband(owner, gone);
    const running = await teamOf(owner, 'Running');
    await post(running, 500, 'deposit');
    await post(owner.accountId, 700, 'deposit');
    h.clock.advance(DISBANDED_SETTLE_DELAY_MS);

    await sweep();
    expect(await settleMoves(gone)).toEqual([]);
    expect(await settleMoves(running)).toEqual([]);
    expect(await wallet(gone)).toBe(0);
    expect(await wallet(running)).toBe(500);
    expect(await wallet(owner.accountId)).toBe(700);
    expect(await noticesOf(owner, 'normal_success')).toEqual([]);
    expect(await noticesOf(owner, 'normal_warn')).toEqual([]);
  });

  it('leaves alone a team disbanded before disbanding settled the wallet (its money and arrears are not news)', async () => {
    const owner = await user();
    const old = await teamOf(owner, 'Disbanded long ago');
    await disband(owner, old);
    // As a team disbanded before 8f1c77d stands: what it had left (or owed) stayed on it.
    await post(old, -300, 'adjustment');
    await db
      .update(accounts)
      .set({ disbandedAt: new Date(DISBANDED_SETTLE_SINCE_MS - 1) })
      .where(eq(accounts.id, old));
    h.clock.advance(DISBANDED_SETTLE_DELAY_MS);

    await sweep();
    expect(await settleMoves(old)).toEqual([]);
    expect(await wallet(old)).toBe(-300);
    expect(await noticesOf(owner, 'normal_warn')).toEqual([]);

    // Disbanded at the cutoff, the same arrears are charged to the owner.
    await db
      .update(accounts)
      .set({ disbandedAt: new Date(DISBANDED_SETTLE_SINCE_MS) })
      .where(eq(accounts.id, old));
    await sweep();
    expect(await wallet(old)).toBe(0);
    expect(await settleMoves(old)).toHaveLength(2);
  });
});
