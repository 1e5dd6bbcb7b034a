/**
 * Writes one batch of the gateway's per-key request log: its entries, and how many entries of each key and minute
 * the gateway did not keep (added on conflict). Once: the batch id goes into usage_batches in the same
 * transaction (marked REQUEST_LOG_BATCH_MARK, pruned with the usage batch ids), so a batch the gateway retries
 * after a lost acknowledgement changes nothing the second time. Answers what it wrote (nothing, the second time).
 */
import { apiKeys, requestLogDrops, requestLogs, usageBatches, type TDatabase } from '@rpc/db';
import type { TRequestLogBatch } from '@rpc/gateway';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../lib/query-rows';

/** Entries or drop counters per INSERT (one JSON parameter each). */
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
  // (The ids as one JSON parameter: a busy window names every key, a thousand bound parameters.)
  const known = new Set(
    (
      await queryRows<{ id: string }>(
        db,
        sql`select id from ${apiKeys}
          where id in (select value::uuid from json_array_elements_text(${JSON.stringify(keyIds)}::json))`,
      )
    ).map((r) => r.id),
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
    // ten bound parameters per entry (building those cost the gateway more CPU than the calls it logged). The
    // entries are serialised as the gateway made them (no copy under column names, no date text per entry): the
    // record shape names their fields, the select converts them (halves rounded up, as Math.round did).
    for (let i = 0; i < entries.length; i += CHUNK) {
      const rows = JSON.stringify(entries.slice(i, i + CHUNK));
      await tx.execute(sql`
        insert into ${requestLogs}
          (account_id, key_id, at, chain, method, transport, outcome, error_code, latency_ms, ru)
        select "accountId", "keyId", 'epoch'::timestamptz + "at" * interval '1 millisecond', chain, method,
          transport, outcome, "errorCode", greatest(0, round("latencyMs"::numeric))::integer,
          greatest(0, round(ru::numeric))::integer
        from json_to_recordset(${rows}::json) as r(
          "accountId" uuid, "keyId" uuid, "at" double precision, chain text, method text, transport text,
          outcome text, "errorCode" integer, "latencyMs" double precision, ru double precision)`);
    }
    // The drop counters the same way (a busy window drops calls of every key: thousands of counters).
    for (let i = 0; i < drops.length; i += CHUNK) {
      const rows = JSON.stringify(drops.slice(i, i + CHUNK));
      await tx.execute(sql`
        insert into ${requestLogDrops} as d (account_id, key_id, minute, count)
        select "accountId", "keyId", 'epoch'::timestamptz + "minute" * interval '1 millisecond', "count"
        from json_to_recordset(${rows}::json) as r(
          "accountId" uuid, "keyId" uuid, "minute" double precision, "count" bigint)
        on conflict (key_id, minute) do update set count = d.count + excluded.count`);
    }
    return { entries: entries.length, dropped: drops.reduce((n, d) => n + d.count, 0) };
  });
}
