/**
 * Keeps packages in step with the RU ledger: the RUs left in active packages always equal the account's RU
 * balance when it is positive. Usage (a debit in the ledger) is spent from packages oldest expiry first (never-
 * expiring ones last); a balance below zero is bought with pay-as-you-go when it is active, billed exactly (the
 * fraction of a cent carried to the next bill), else it stays as the ≤ one-call overdraw the gateway allows and
 * the next package pays it first. Called in the transaction that moved the ledger.
 */
import { accounts, ruPackages, type TExecutor } from '@rpc/db';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { appendRuLedger } from '../ledger/append-ru-ledger';
import { activePayg, postMoney, refreshPaygAllowance } from './post-money';

export type TReconcileResult = {
  /** packages that ran out in this call (auto-renewal candidates) */
  exhausted: string[];
  /** RUs billed to pay-as-you-go and the cents charged for them */
  paygRu: number;
  paygCents: number;
};

export async function reconcilePackages(
  tx: TExecutor,
  o: { accountId: string; now: number; ref: string },
): Promise<TReconcileResult> {
  const result: TReconcileResult = { exhausted: [], paygRu: 0, paygCents: 0 };
  // The account row is the lock every money and package change of this account takes first.
  const [account] = await tx
    .select({
      ruBalance: accounts.ruBalance,
      carry: accounts.paygCarryMicroCents,
      allowance: accounts.paygAllowanceRu,
    })
    .from(accounts)
    .where(eq(accounts.id, o.accountId))
    .for('update');
  if (!account) return result;

  const isOpen = and(
    eq(ruPackages.accountId, o.accountId),
    eq(ruPackages.status, 'active'),
    lt(ruPackages.ruUsed, ruPackages.ruTotal),
  );
  // The sum first: most calls (a purchase, a batch the packages already match) have nothing to spend.
  const [sum] = await tx
    .select({ left: sql<string>`coalesce(sum(${ruPackages.ruTotal} - ${ruPackages.ruUsed}), 0)` })
    .from(ruPackages)
    .where(isOpen);
  let toSpend = Number(sum?.left ?? 0) - Math.max(account.ruBalance, 0);
  while (toSpend > 0) {
    const open = await tx
      .select({ id: ruPackages.id, ruTotal: ruPackages.ruTotal, ruUsed: ruPackages.ruUsed })
      .from(ruPackages)
      .where(isOpen)
      .orderBy(sql`${ruPackages.expiresAt} asc nulls last`, asc(ruPackages.createdAt))
      .limit(50);
    if (open.length === 0) break;
    for (const p of open) {
      if (toSpend <= 0) break;
      const take = Math.min(p.ruTotal - p.ruUsed, toSpend);
      toSpend -= take;
      const isEmpty = p.ruUsed + take === p.ruTotal;
      await tx
        .update(ruPackages)
        .set({
          ruUsed: p.ruUsed + take,
          ...(isEmpty ? { status: 'exhausted' as const, endedAt: new Date(o.now) } : {}),
        })
        .where(eq(ruPackages.id, p.id));
      if (isEmpty) result.exhausted.push(p.id);
    }
  }

  if (account.ruBalance < 0) {
    const payg = await activePayg(tx, o.accountId, o.now);
    if (payg) {
      const owed = -account.ruBalance;
      // cents per million RU = millionths of a cent per RU
      const micro = BigInt(account.carry) + BigInt(owed) * BigInt(payg.centsPerMillionRu);
      const cents = Number(micro / 1_000_000n);
      const carry = Number(micro % 1_000_000n);
      const isNew = await appendRuLedger(tx, {
        accountId: o.accountId,
        delta: owed,
        kind: 'payg',
        ref: o.ref,
        at: o.now,
      });
      if (isNew) {
        await tx
          .update(accounts)
          .set({ paygCarryMicroCents: carry })
          .where(eq(accounts.id, o.accountId));
        // postMoney re-derives the allowance; a bill under a cent moved only the carry, which it depends on too.
        if (cents > 0)
          await postMoney(tx, {
            accountId: o.accountId,
            delta: -cents,
            kind: 'payg',
            ref: o.ref,
            at: o.now,
          });
        else await refreshPaygAllowance(tx, o.accountId, o.now);
        result.paygRu = owed;
        result.paygCents = cents;
      }
    }
  }
  // A pay-as-you-go package may have expired since the allowance was derived; without one (the usual account)
  // nothing here can have moved it, so the usual batch costs no allowance queries.
  if (account.allowance > 0 && result.paygRu === 0)
    await refreshPaygAllowance(tx, o.accountId, o.now);
  return result;
}
