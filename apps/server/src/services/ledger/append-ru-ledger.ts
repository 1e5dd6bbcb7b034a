/** The only writer of ru_ledger: appends an idempotent entry and moves the cached accounts.ru_balance with it. */
import { accounts, ruLedger, type TExecutor, type TRuLedgerKind } from '@rpc/db';
import { eq, inArray, sql } from 'drizzle-orm';
import { queryRows } from '../../lib/query-rows';

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

/**
 * appendRuLedger for many accounts at once (a gateway usage flush debits every account it saw): the entries and
 * the cached balances move in one statement instead of two per account. At most one entry per account; the
 * account rows are locked in id order first, so two flushes never deadlock. Returns the accounts whose entry was
 * new (an entry already there, a retry, changes nothing). Call inside the transaction that makes the change.
 */
export async function appendRuLedgerMany(
  tx: TExecutor,
  entries: { accountId: string; delta: number; kind: TRuLedgerKind; ref: string; at: number }[],
): Promise<Set<string>> {
  const appended = new Set<string>();
  if (entries.length === 0) return appended;
  const seen = new Set<string>();
  for (const e of entries) {
    if (!Number.isSafeInteger(e.delta)) throw new Error('ledger delta must be a safe integer');
    if (seen.has(e.accountId)) throw new Error('appendRuLedgerMany: one entry per account');
    seen.add(e.accountId);
  }
  const ids = [...seen].sort();
  await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(inArray(accounts.id, ids))
    .orderBy(accounts.id)
    .for('no key update');
  const rows = JSON.stringify(
    entries.map((e) => ({
      account_id: e.accountId,
      delta: e.delta,
      kind: e.kind,
      ref: e.ref,
      created_at: new Date(e.at).toISOString(),
    })),
  );
  const appendedRows = await queryRows<{ id: string }>(
    tx,
    sql`
    with added as (
      insert into ${ruLedger} (account_id, delta, kind, ref, created_at)
      select account_id, delta, kind, ref, created_at
      from json_to_recordset(${rows}::json) as r(
        account_id uuid, delta bigint, kind text, ref text, created_at timestamptz)
      on conflict (account_id, kind, ref) do nothing
      returning account_id, delta)
    update ${accounts} as a
    set ru_balance = a.ru_balance + added.delta, ru_version = a.ru_version + 1
    from added where a.id = added.account_id
    returning a.id`,
  );
  for (const r of appendedRows) appended.add(r.id);
  return appended;
}
