/**
 * The only writer of money_ledger: appends an idempotent entry in USD cents and moves the cached
 * accounts.wallet_cents with it, then re-derives what pay-as-you-go may still bill (payg_allowance_ru), which the
 * gateway adds to the RU balance. Copy of the RU writer's pattern (services/ledger/append-ru-ledger.ts).
 */
import { accounts, moneyLedger, ruPackages, type TExecutor, type TMoneyLedgerKind } from '@rpc/db';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';

export type TMoneyEntry = {
  accountId: string;
  /** cents; credits positive, debits negative */
  delta: number;
  kind: TMoneyLedgerKind;
  ref: string;
  at: number;
};

/**
 * Appends (account, kind, ref) once. Returns false when that entry already exists (a retry), in which case
 * nothing changes. Call inside the transaction that makes the change the entry records.
 */
export async function postMoney(tx: TExecutor, entry: TMoneyEntry): Promise<boolean> {
  if (!Number.isSafeInteger(entry.delta)) throw new Error('money delta must be a safe integer');
  const inserted = await tx
    .insert(moneyLedger)
    .values({
      accountId: entry.accountId,
      delta: entry.delta,
      kind: entry.kind,
      ref: entry.ref,
      createdAt: new Date(entry.at),
    })
    .onConflictDoNothing({ target: [moneyLedger.accountId, moneyLedger.kind, moneyLedger.ref] })
    .returning({ id: moneyLedger.id });
  if (inserted.length === 0) return false;
  await tx
    .update(accounts)
    .set({ walletCents: sql`${accounts.walletCents} + ${entry.delta}` })
    .where(eq(accounts.id, entry.accountId));
  await refreshPaygAllowance(tx, entry.accountId, entry.at);
  return true;
}

/** The active pay-as-you-go package's terms, or undefined. */
export async function activePayg(
  tx: TExecutor,
  accountId: string,
  now: number,
): Promise<{ id: string; centsPerMillionRu: number; arrearsLimitCents: number } | undefined> {
  const [row] = await tx
    .select({
      id: ruPackages.id,
      centsPerMillionRu: ruPackages.paygCentsPerMillionRu,
      arrearsLimitCents: ruPackages.arrearsLimitCents,
    })
    .from(ruPackages)
    .where(
      and(
        eq(ruPackages.accountId, accountId),
        eq(ruPackages.type, 'default'),
        eq(ruPackages.status, 'active'),
        or(isNull(ruPackages.expiresAt), gt(ruPackages.expiresAt, new Date(now))),
      ),
    )
    .orderBy(desc(ruPackages.expiresAt))
    .limit(1);
  if (!row || !row.centsPerMillionRu) return undefined;
  return {
    id: row.id,
    centsPerMillionRu: row.centsPerMillionRu,
    arrearsLimitCents: row.arrearsLimitCents ?? 0,
  };
}

/**
 * RUs pay-as-you-go can still bill: (wallet + arrears limit) at its price, less the carried fraction of a cent.
 * A price in cents per million RU is a price in millionths of a cent per RU, so the division is exact integers.
 */
export function paygAllowance(
  walletCents: number,
  carryMicroCents: number,
  payg: { centsPerMillionRu: number; arrearsLimitCents: number } | undefined,
): number {
  if (!payg) return 0;
  const micro =
    (BigInt(walletCents) + BigInt(payg.arrearsLimitCents)) * 1_000_000n - BigInt(carryMicroCents);
  if (micro <= 0n) return 0;
  return Number(micro / BigInt(payg.centsPerMillionRu));
}

/**
 * Re-derives accounts.payg_allowance_ru; a change bumps ru_version, since the gateway's spendable RUs
 * (ru_balance + allowance) moved and RU pools order their snapshots by that version.
 */
export async function refreshPaygAllowance(
  tx: TExecutor,
  accountId: string,
  now: number,
): Promise<void> {
  const [account] = await tx
    .select({
      walletCents: accounts.walletCents,
      carry: accounts.paygCarryMicroCents,
      allowance: accounts.paygAllowanceRu,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!account) return;
  const next = paygAllowance(
    account.walletCents,
    account.carry,
    await activePayg(tx, accountId, now),
  );
  if (next === account.allowance) return;
  await tx
    .update(accounts)
    .set({ paygAllowanceRu: next, ruVersion: sql`${accounts.ruVersion} + 1` })
    .where(eq(accounts.id, accountId));
}

/** The wallet by the ledger itself (the truth the cached column is checked against). */
export async function ledgerWalletCents(db: TExecutor, accountId: string): Promise<number> {
  const [row] = await db
    .select({ sum: sql<string | null>`sum(${moneyLedger.delta})` })
    .from(moneyLedger)
    .where(eq(moneyLedger.accountId, accountId));
  return Number(row?.sum ?? 0);
}
