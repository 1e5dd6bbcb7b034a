/**
 * Writes one gateway usage batch exactly once: the batch id, its per-minute rows (counters added on conflict),
 * the hour and day rollups and one RU debit per account (ref = batch id), spent from the account's packages (or
 * billed to pay-as-you-go), commit together. A batch id seen before changes nothing.
 */
import {
  accounts,
  ruPackages,
  spendLimits,
  spendableRu,
  usageBatches,
  usageMinute,
  type TDatabase,
  type TExecutor,
} from '@rpc/db';
import type { TUsageBatch, TUsageRow } from '@rpc/gateway';
import { inArray, sql } from 'drizzle-orm';
import { queryRows } from '../../lib/query-rows';
import { appendRuLedgerMany } from '../ledger/append-ru-ledger';
import { reconcilePackages } from '../wallet/reconcile-packages';
import { enforceSpendLimit } from '../wallet/spend-limits';
import { addToRollups, lockReportZones } from './rollups';

/** Minute rows per INSERT (one JSON document each). */
const CHUNK = 5000;

export type TWriteUsageResult = {
  applied: boolean;
  accountIds: string[];
  /** Each account's balance and ledger version as read after the batch (a later state is as good). */
  states: Map<string, { ruBalance: number; ruVersion: number }>;
};

export async function writeUsageBatch(
  db: TDatabase,
  batch: TUsageBatch,
): Promise<TWriteUsageResult> {
  // A fixed row order, so two processes upserting overlapping rows never deadlock.
  const rows = mergeRows(batch.rows).sort(compareRows);
  const debits = new Map<string, number>();
  for (const r of rows) debits.set(r.accountId, (debits.get(r.accountId) ?? 0) + r.ru);
  const accountIds = [...debits.keys()].sort();

  const applied = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(usageBatches)
      .values({
        batchId: batch.batchId,
        ruTableVersion: batch.ruTableVersion,
        rows: rows.length,
        createdAt: new Date(batch.createdAt),
      })
      .onConflictDoNothing()
      .returning({ batchId: usageBatches.batchId });
    if (inserted.length === 0) return false;
    const zones = await lockReportZones(tx, accountIds);
    // One JSON parameter per chunk, unpacked by the database: binding ten parameters per row cost the gateway
    // more CPU than the statement (1,000 keys make 1,000+ rows per flush).
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = JSON.stringify(
        rows.slice(i, i + CHUNK).map((r) => ({
          account_id: r.accountId,
          key_id: r.keyId,
          chain: r.chain,
          method: r.method,
          minute: new Date(r.minute).toISOString(),
          requests: r.requests,
          ru: r.ru,
          errors: r.errors,
          latency_ms_sum: r.latencyMsSum,
          latency_ms_max: r.latencyMsMax,
        })),
      );
      await tx.execute(sql`
        insert into ${usageMinute} as m
          (account_id, key_id, chain, method, minute, requests, ru, errors, latency_ms_sum, latency_ms_max)
        select account_id, key_id, chain, method, minute, requests, ru, errors, latency_ms_sum, latency_ms_max
        from json_to_recordset(${chunk}::json) as r(
          account_id uuid, key_id uuid, chain text, method text, minute timestamptz, requests bigint, ru bigint,
          errors bigint, latency_ms_sum bigint, latency_ms_max integer)
        on conflict (key_id, chain, method, minute) do update set
          requests = m.requests + excluded.requests,
          ru = m.ru + excluded.ru,
          errors = m.errors + excluded.errors,
          latency_ms_sum = m.latency_ms_sum + excluded.latency_ms_sum,
          latency_ms_max = greatest(m.latency_ms_max, excluded.latency_ms_max)`);
    }
    await addToRollups(tx, rows, zones);
    const charged = accountIds.filter((id) => (debits.get(id) ?? 0) !== 0);
    // One statement debits every account (a flush of 1,000 keys on 100 accounts made 500 round trips here).
    await appendRuLedgerMany(
      tx,
      charged.map((accountId) => ({
        accountId,
        delta: -(debits.get(accountId) ?? 0),
        kind: 'usage' as const,
        ref: batch.batchId,
        at: batch.createdAt,
      })),
    );
    // The per-account money work, only where there is some: spent from packages oldest expiry first, beyond
    // them billed to pay-as-you-go when it is active; a 'stop' spend limit reached by this batch stops the
    // account for every gateway with this commit. Most accounts have neither open packages, debt, an allowance
    // nor a limit, and are found so by one query.
    for (const a of await moneyWork(tx, charged)) {
      if (a.reconcile)
        await reconcilePackages(tx, { accountId: a.id, now: batch.createdAt, ref: batch.batchId });
      if (a.limited) await enforceSpendLimit(tx, a.id, batch.createdAt);
    }
    return true;
  });
  const states = new Map<string, { ruBalance: number; ruVersion: number }>();
  if (accountIds.length > 0) {
    const rows = await db
      .select({ id: accounts.id, ruBalance: spendableRu, ruVersion: accounts.ruVersion })
      .from(accounts)
      .where(inArray(accounts.id, accountIds));
    for (const r of rows) states.set(r.id, { ruBalance: r.ruBalance, ruVersion: r.ruVersion });
  }
  return { applied, accountIds, states };
}

/** Method names as stored: a JSON-RPC name, or one bucket for anything else a caller made up. */
const METHOD_SHAPE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const INVALID_METHOD_BUCKET = '(invalid)';

/**
 * Unserved calls with arbitrary method names are metered too (at 0 RU). Stored as they came, a long name would
 * break the primary-key index (a failed batch is retried forever) and random names would grow the table without
 * bound, so they share one bucket; rows that then coincide are merged (one upsert may not touch a row twice).
 */
function mergeRows(input: TUsageRow[]): TUsageRow[] {
  const merged = new Map<string, TUsageRow>();
  for (const r of input) {
    const method = METHOD_SHAPE.test(r.method) ? r.method : INVALID_METHOD_BUCKET;
    const id = `${r.keyId}\u0000${r.chain}\u0000${method}\u0000${r.minute}`;
    const seen = merged.get(id);
    if (!seen) {
      merged.set(id, { ...r, method });
      continue;
    }
    seen.requests += r.requests;
    seen.ru += r.ru;
    seen.errors += r.errors;
    seen.latencyMsSum += r.latencyMsSum;
    seen.latencyMsMax = Math.max(seen.latencyMsMax, r.latencyMsMax);
  }
  return [...merged.values()];
}

function compareRows(a: TUsageRow, b: TUsageRow): number {
  return (
    cmp(a.keyId, b.keyId) || cmp(a.chain, b.chain) || cmp(a.method, b.method) || a.minute - b.minute
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Which of these accounts (their rows locked by this transaction) reconcilePackages or enforceSpendLimit would
 * change anything for, in id order: open packages holding more than the positive balance (RUs to spend from
 * them), a negative balance (pay-as-you-go), a pay-as-you-go allowance to re-derive, or a spend limit row.
 * reconcilePackages' own tests decide the same; this only saves its queries where all of them would be no.
 */
async function moneyWork(
  tx: TExecutor,
  accountIds: string[],
): Promise<{ id: string; reconcile: boolean; limited: boolean }[]> {
  if (accountIds.length === 0) return [];
  const rows = await queryRows<{
    id: string;
    ru_balance: string | number;
    allowance: string | number;
    open_left: string | number;
    limited: boolean;
  }>(
    tx,
    sql`select a.id, a.ru_balance, a.payg_allowance_ru as allowance,
        coalesce((select sum(p.ru_total - p.ru_used) from ${ruPackages} p
          where p.account_id = a.id and p.status = 'active' and p.ru_used < p.ru_total), 0) as open_left,
        exists (select 1 from ${spendLimits} s where s.account_id = a.id) as limited
      from ${accounts} a
      where a.id in (${sql.join(
        accountIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      order by a.id`,
  );
  return rows
    .map((r) => {
      const balance = Number(r.ru_balance);
      const reconcile =
        Number(r.open_left) > Math.max(balance, 0) || balance < 0 || Number(r.allowance) > 0;
      return { id: r.id, reconcile, limited: r.limited === true || String(r.limited) === 't' };
    })
    .filter((a) => a.reconcile || a.limited);
}
