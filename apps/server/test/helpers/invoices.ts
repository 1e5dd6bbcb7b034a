/** What the invoice tests share: a signed-up user with its ids, money in the wallet, and a paid purchase. */
import { randomUUID } from 'node:crypto';
import { moneyLedger, users, type TDatabase } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { postMoney } from '../../src/services/wallet/post-money';
import type { THarness } from './harness';

export type TInvoiceTestUser = {
  email: string;
  password: string;
  token: string;
  userId: string;
  accountId: string;
};

export function invoiceTestKit(h: () => THarness) {
  const db = (): TDatabase => h().database.db;

  async function user(o: { language?: 'en' | 'zh' } = {}): Promise<TInvoiceTestUser> {
    const s = await h().signUp(o);
    const [u] = await db().select().from(users).where(eq(users.email, s.email));
    return { ...s, userId: u!.id, accountId: u!.personalAccountId };
  }

  /** Money arrives as a deposit would: one idempotent ledger credit. */
  async function credit(accountId: string, cents: number): Promise<void> {
    await db().transaction((tx) =>
      postMoney(tx, {
        accountId,
        delta: cents,
        kind: 'deposit',
        ref: randomUUID(),
        at: h().clock.now(),
      }),
    );
  }

  /** Buys a SKU from the wallet; answers the purchase. */
  async function buy(token: string, skuId = 'standard-100m', teamId?: string) {
    const res = await h().call(
      'hub_buyPackage',
      { skuId, idempotencyKey: randomUUID() },
      { token, ...(teamId ? { teamId } : {}) },
    );
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    return res.result.purchase;
  }

  /** What the money ledger took for a purchase (cents, positive). */
  async function ledgerPaid(accountId: string, purchaseId: string): Promise<number> {
    const rows = await db()
      .select({ delta: moneyLedger.delta })
      .from(moneyLedger)
      .where(
        and(
          eq(moneyLedger.accountId, accountId),
          eq(moneyLedger.kind, 'purchase'),
          eq(moneyLedger.ref, purchaseId),
        ),
      );
    expect(rows).toHaveLength(1);
    return -rows[0]!.delta;
  }

  /** The account's invoices, newest first (one page of up to 100). */
  async function invoicesOf(token: string, teamId?: string) {
    const res = await h().call(
      'hub_getUserInvoice',
      { page: 1, perPage: 100 },
      { token, ...(teamId ? { teamId } : {}) },
    );
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    return res.result;
  }

  return { user, credit, buy, ledgerPaid, invoicesOf };
}
