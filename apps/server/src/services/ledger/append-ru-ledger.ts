/** The only writer of ru_ledger: appends an idempotent entry and moves the cached accounts.ru_balance with it. */
import { accounts, ruLedger, type TExecutor, type TRuLedgerKind } from '@rpc/db';
import { eq, sql } from 'drizzle-orm';

/**
 * Appends (account, kind, ref) once. Returns false when that entry already exists (a retry), in which case
 * nothing changes. Call inside the transaction that makes the change the entry records.
 */
export async function appendRuLedger(
  tx: TExecutor,
  entry: { accountId: string; delta: number; kind: TRuLedgerKind; ref: string; at: number },
): Promise<boolean> {
  if (!Number.isSafeInteger(entry.delta)) throw new Error('ledger delta must be a safe integer');
  const inserted = await tx
    .insert(ruLedger)
    .values({
      accountId: entry.accountId,
      delta: entry.delta,
      kind: entry.kind,
      ref: entry.ref,
      createdAt: new Date(entry.at),
    })
    .onConflictDoNothing({ target: [ruLedger.accountId, ruLedger.kind, ruLedger.ref] })
    .returning({ id: ruLedger.id });
  if (inserted.length === 0) return false;
  await tx
    .update(accounts)
    .set({
      ruBalance: sql`${accounts.ruBalance} + ${entry.delta}`,
      ruVersion: sql`${accounts.ruVersion} + 1`,
    })
    .where(eq(accounts.id, entry.accountId));
  return true;
}

/** The balance by the ledger itself (the truth the cached column is checked against). */
export async function ledgerBalance(db: TExecutor, accountId: string): Promise<number> {
  const [row] = await db
    .select({ sum: sql<string | null>`sum(${ruLedger.delta})` })
    .from(ruLedger)
    .where(eq(ruLedger.accountId, accountId));
  return Number(row?.sum ?? 0);
}

/** The cached balance (what the console and the gateway read). */
export async function cachedRuBalance(db: TExecutor, accountId: string): Promise<number> {
  const [row] = await db
    .select({ ruBalance: accounts.ruBalance })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row?.ruBalance ?? 0;
}
