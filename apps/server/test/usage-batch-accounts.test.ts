/**
 * One gateway usage batch over several accounts (the flush of a gateway serving many), on each test database: the
 * debits of every account move in one statement, and only the accounts with money work get it — a package spent, a
 * spend limit reached — while a plain balance is only debited. The same batch again changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { accounts, apiKeys, ruLedger, ruPackages, users, type TDatabase } from '@rpc/db';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TUsageRow } from '@rpc/gateway';
import { appendRuLedger, appendRuLedgerMany } from '../src/services/ledger/append-ru-ledger';
import { writeUsageBatch } from '../src/services/usage/write-usage-batch';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, type THarness } from './helpers/harness';

const GIFT = 1000;

describe.each(TEST_DATABASES)('a usage batch over many accounts on $name', ({ open }) => {
  let h: THarness;
  let db: TDatabase;
  beforeAll(async () => {
    h = await createHarness(open, { env: { REGISTER_GIFT_RU: GIFT } });
    db = h.database.db;
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A signed-up user's account (with its register gift package) and its first key. */
  async function signedUp() {
    const s = await h.signUp();
    const made = await h.call('hub_generateApiKey', { name: 'k' }, { token: s.token });
    if (!made.ok) throw new Error(JSON.stringify(made.error));
    const [u] = await db.select().from(users).where(eq(users.email, s.email));
    return { token: s.token, accountId: u!.personalAccountId, keyId: made.result!.keyId };
  }

  /** An account without packages, its RUs granted by an adjustment (as bench:gateway-product seeds them). */
  async function bare(ru: number) {
    const accountId = randomUUID();
    const keyId = randomUUID();
    await db.transaction(async (tx) => {
      await tx
        .insert(accounts)
        .values({ id: accountId, kind: 'personal', name: 'bare', tier: 'premium' });
      await appendRuLedger(tx, {
        accountId,
        delta: ru,
        kind: 'adjustment',
        ref: 'seed',
        at: h.clock.now(),
      });
      await tx
        .insert(apiKeys)
        .values({ id: keyId, accountId, name: 'k', keyHash: randomUUID(), keyCiphertext: 'x' });
    });
    return { accountId, keyId };
  }

  const row = (a: { accountId: string; keyId: string }, ru: number): TUsageRow => {
    const at = h.clock.now();
    return {
      accountId: a.accountId,
      keyId: a.keyId,
      chain: 'localnet',
      method: 'eth_call',
      minute: at - (at % 60_000),
      requests: ru / 10,
      ru,
      errors: 0,
      latencyMsSum: 1,
      latencyMsMax: 1,
    };
  };

  async function state(accountIds: string[]) {
    const rows = await db
      .select({ id: accounts.id, ru: accounts.ruBalance, blocked: accounts.spendBlockedUntil })
      .from(accounts)
      .where(inArray(accounts.id, accountIds));
    const ledger = await db
      .select({ id: ruLedger.id })
      .from(ruLedger)
      .where(inArray(ruLedger.accountId, accountIds));
    return { accounts: new Map(rows.map((r) => [r.id, r])), ledgerRows: ledger.length };
  }

  it('debits every account once, spends packages and applies a spend limit only where they are', async () => {
    const withGift = await signedUp();
    const limited = await signedUp();
    const set = await h.call(
      'hub_setSpendLimits',
      { monthlyRuCap: 50, monthlyCentsCap: null, action: 'stop', alertPercents: [100] },
      { token: limited.token },
    );
    expect(set.ok).toBe(true);
    const plain = await bare(10_000);
    const ids = [withGift.accountId, limited.accountId, plain.accountId];
    const before = await state(ids);

    const batch = {
      batchId: randomUUID(),
      createdAt: h.clock.now(),
      ruTableVersion: 'test',
      rows: [row(withGift, 120), row(limited, 60), row(plain, 300), row(plain, 40)],
    };
    const res = await writeUsageBatch(db, batch);
    expect(res.applied).toBe(true);
    expect(res.accountIds.sort()).toEqual([...ids].sort());

    const after = await state(ids);
    expect(after.ledgerRows).toBe(before.ledgerRows + 3); // one debit per account
    expect(after.accounts.get(withGift.accountId)!.ru).toBe(GIFT - 120);
    expect(after.accounts.get(limited.accountId)!.ru).toBe(GIFT - 60);
    expect(after.accounts.get(plain.accountId)!.ru).toBe(10_000 - 340);
    // The gift package paid for the usage of its account; the bare account has no package to touch.
    const gifts = await db
      .select({ accountId: ruPackages.accountId, used: ruPackages.ruUsed })
      .from(ruPackages)
      .where(inArray(ruPackages.accountId, ids));
    expect(new Map(gifts.map((g) => [g.accountId, g.used]))).toEqual(
      new Map([
        [withGift.accountId, 120],
        [limited.accountId, 60],
      ]),
    );
    // The 'stop' limit of 50 RU was passed by this batch: its account is stopped, the others are not.
    expect(after.accounts.get(limited.accountId)!.blocked).not.toBeNull();
    expect(after.accounts.get(withGift.accountId)!.blocked).toBeNull();
    expect(after.accounts.get(plain.accountId)!.blocked).toBeNull();
    expect(res.states.get(limited.accountId)?.ruBalance).toBe(0); // nothing left to spend while stopped
    expect(res.states.get(plain.accountId)?.ruBalance).toBe(10_000 - 340);

    // A retry of the same batch (a lost acknowledgement) changes nothing.
    const again = await writeUsageBatch(db, batch);
    expect(again.applied).toBe(false);
    const retried = await state(ids);
    expect(retried.ledgerRows).toBe(after.ledgerRows);
    for (const id of ids) expect(retried.accounts.get(id)!.ru).toBe(after.accounts.get(id)!.ru);
  });

  it('appends many entries once each, refuses two for one account and a delta that is not a safe integer', async () => {
    const a = await bare(100);
    const b = await bare(100);
    const entries = [a, b].map((x) => ({
      accountId: x.accountId,
      delta: -7,
      kind: 'usage' as const,
      ref: 'batch-1',
      at: h.clock.now(),
    }));
    expect([...(await db.transaction((tx) => appendRuLedgerMany(tx, entries)))].sort()).toEqual(
      [a.accountId, b.accountId].sort(),
    );
    // Again: already there, nothing new and no balance moved.
    expect((await db.transaction((tx) => appendRuLedgerMany(tx, entries))).size).toBe(0);
    const s = await state([a.accountId, b.accountId]);
    expect(s.accounts.get(a.accountId)!.ru).toBe(93);
    expect(s.accounts.get(b.accountId)!.ru).toBe(93);

    await expect(
      db.transaction((tx) =>
        appendRuLedgerMany(tx, [
          { ...entries[0]!, ref: 'batch-2' },
          { ...entries[0]!, ref: 'batch-3' },
        ]),
      ),
    ).rejects.toThrow(/one entry per account/);
    await expect(
      db.transaction((tx) => appendRuLedgerMany(tx, [{ ...entries[0]!, ref: 'x', delta: 0.5 }])),
    ).rejects.toThrow(/safe integer/);
    const usage = await db
      .select({ ref: ruLedger.ref })
      .from(ruLedger)
      .where(and(eq(ruLedger.accountId, a.accountId), eq(ruLedger.kind, 'usage')));
    expect(usage.map((u) => u.ref)).toEqual(['batch-1']);
  });
});
