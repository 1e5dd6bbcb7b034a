/**
 * Writes one batch of the gateway's per-key request log: its entries, and how many entries of each key and minute
 * the gateway did not keep (added on conflict). Once: the batch id goes into usage_batches in the same
 * transaction (marked REQUEST_LOG_BATCH_MARK, pruned with the usage batch ids), so a batch the gateway retries
 * after a lost acknowledgement changes nothing the second time. Answers what it wrote (nothing, the second time).
 */
import { apiKeys, requestLogDrops, requestLogs, usageBatches, type TDatabase } from '@rpc/db';
import type { TRequestLogBatch } from '@rpc/gateway';
import { inArray, sql } from 'drizzle-orm';

/** Entries per INSERT of entries (one JSON parameter each) and of drop counters (4 parameters each). */
const CHUNK = 5000;

/** usage_batches.ru_table_version of a request-log batch id (usage batches hold their RU table's version). */
export const REQUEST_LOG_BATCH_MARK = 'request-log';

export async function writeRequestLogBatch(
  db: TDatabase,
  batch: TRequestLogBatch,
): Promise<{ entries: number; dropped: number }> {
  const keyIds = [
    ...new Set([...batch.entries.map((e) => e.keyId), ...batch.dropped.map((d) => d.keyId)]),
  ];
  if (keyIds.length === 0) return { entries: 0, dropped: 0 };
  // A key removed from the database since the call (its account deleted) takes its entries with it, instead of
  // failing the whole batch on the foreign key.
  const known = new Set(
    (await db.select({ id: apiKeys.id }).from(apiKeys).where(inArray(apiKeys.id, keyIds))).map(
      (r) => r.id,
    ),
  );
  const entries = batch.entries.filter((e) => known.has(e.keyId));
  // In a fixed order, so two gateways adding to the same counters never deadlock.
  const drops = batch.dropped
    .filter((d) => known.has(d.keyId) && d.count > 0)
    .sort((a, b) => (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : a.minute - b.minute));
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(usageBatches)
      .values({
        batchId: batch.batchId,
        ruTableVersion: REQUEST_LOG_BATCH_MARK,
        rows: entries.length,
        createdAt: new Date(batch.createdAt),
      })
      .onConflictDoNothing()
      .returning({ batchId: usageBatches.batchId });
    if (inserted.length === 0) return { entries: 0, dropped: 0 };
    // Up to 20,000 entries per flush: sent as one JSON document per chunk and unpacked by the database, not as
    // ten bound parameters per entry (building those cost the gateway more CPU than the calls it logged).
    for (let i = 0; i < entries.length; i += CHUNK) {
      const rows = JSON.stringify(
        entries.slice(i, i + CHUNK).map((e) => ({
          account_id: e.accountId,
          key_id: e.keyId,
          at: new Date(e.at).toISOString(),
          chain: e.chain,
          method: e.method,
          transport: e.transport,
          outcome: e.outcome,
          error_code: e.errorCode ?? null,
          latency_ms: Math.max(0, Math.round(e.latencyMs)),
          ru: Math.max(0, Math.round(e.ru)),
        })),
      );
      await tx.execute(sql`
        insert into ${requestLogs}
          (account_id, key_id, at, chain, method, transport, outcome, error_code, latency_ms, ru)
        select account_id, key_id, at, chain, method, transport, outcome, error_code, latency_ms, ru
        from json_to_recordset(${rows}::json) as r(
          account_id uuid, key_id uuid, at timestamptz, chain text, method text, transport text,
          outcome text, error_code integer, latency_ms integer, ru integer)`);
    }
    for (let i = 0; i < drops.length; i += CHUNK)
      await tx
        .insert(requestLogDrops)
        .values(
          drops.slice(i, i + CHUNK).map((d) => ({
            accountId: d.accountId,
            keyId: d.keyId,
            minute: new Date(d.minute),
            count: d.count,
          })),
        )
        .onConflictDoUpdate({
          target: [requestLogDrops.keyId, requestLogDrops.minute],
          set: { count: sql`${requestLogDrops.count} + excluded.count` },
        });
    return { entries: entries.length, dropped: drops.reduce((n, d) => n + d.count, 0) };
  });
}
