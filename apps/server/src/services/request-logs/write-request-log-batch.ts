/**
 * Writes one batch of the gateway's per-key request log: its entries, one row per key (request_log_windows), and
 * how many entries of each key and minute the gateway did not keep (added on conflict). Once: the batch id goes
 * into usage_batches in the same transaction (marked REQUEST_LOG_BATCH_MARK, pruned with the usage batch ids), so
 * a batch the gateway retries after a lost acknowledgement changes nothing the second time. Answers what it wrote
 * (nothing, the second time).
 */
import {
  apiKeys,
  requestLogDrops,
  requestLogWindows,
  usageBatches,
  type TDatabase,
  type TRequestLogEntryRow,
} from '@rpc/db';
import type { TRequestLogBatch, TRequestLogEntry } from '@rpc/gateway';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../lib/query-rows';

/** Keys' windows or drop counters per INSERT (one JSON parameter each). */
const CHUNK = 5000;

const INT32_MAX = 2_147_483_647;

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
  const windows = windowsOfKeys(batch.entries, known);
  const entries = windows.reduce((n, w) => n + w.n, 0);
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
        rows: entries,
        createdAt: new Date(batch.createdAt),
      })
      .onConflictDoNothing()
      .returning({ batchId: usageBatches.batchId });
    if (inserted.length === 0) return { entries: 0, dropped: 0 };
    // One row per key, not per entry: up to 20,000 entries per flush cost PostgreSQL ≈ 22 µs each as rows (two
    // foreign-key checks, three index entries, the JSON unpacked into ten columns), ten times what it costs as
    // a thousand arrays (docs/decisions/request-log.md, "One row per key and window"). Sent as one JSON document
    // per chunk; each window's entries are stored as the JSON they arrive as.
    for (let i = 0; i < windows.length; i += CHUNK) {
      const rows = JSON.stringify(windows.slice(i, i + CHUNK));
      await tx.execute(sql`
        insert into ${requestLogWindows} (account_id, key_id, first_at, last_at, n, entries)
        select "accountId", "keyId", 'epoch'::timestamptz + "firstAt" * interval '1 millisecond',
          'epoch'::timestamptz + "lastAt" * interval '1 millisecond', n, entries
        from json_to_recordset(${rows}::json) as r(
          "accountId" uuid, "keyId" uuid, "firstAt" double precision, "lastAt" double precision, n integer,
          entries json)`);
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
    return { entries, dropped: drops.reduce((n, d) => n + d.count, 0) };
  });
}

type TWindow = {
  accountId: string;
  keyId: string;
  firstAt: number;
  lastAt: number;
  n: number;
  entries: TRequestLogEntryRow[];
};

/**
 * The batch's entries of known keys, grouped per key in the order the gateway settled them, as stored arrays:
 * latency and RU rounded half up to non-negative integers, an error code kept only as a 32-bit integer. An entry
 * without a finite time is left out (the gateway always stamps one; this keeps the window's bounds honest).
 */
function windowsOfKeys(
  entries: readonly TRequestLogEntry[],
  known: ReadonlySet<string>,
): TWindow[] {
  const byKey = new Map<string, TWindow>();
  for (const e of entries) {
    if (!known.has(e.keyId) || !Number.isFinite(e.at)) continue;
    let w = byKey.get(e.keyId);
    if (!w) {
      w = {
        accountId: e.accountId,
        keyId: e.keyId,
        firstAt: e.at,
        lastAt: e.at,
        n: 0,
        entries: [],
      };
      byKey.set(e.keyId, w);
    }
    if (e.at < w.firstAt) w.firstAt = e.at;
    if (e.at > w.lastAt) w.lastAt = e.at;
    w.n += 1;
    w.entries.push([
      e.at,
      storableText(e.chain),
      storableText(e.method),
      e.transport,
      e.outcome,
      e.errorCode !== null &&
      Number.isInteger(e.errorCode) &&
      e.errorCode >= -INT32_MAX - 1 &&
      e.errorCode <= INT32_MAX
        ? e.errorCode
        : null,
      roundCount(e.latencyMs),
      roundCount(e.ru),
    ]);
  }
  return [...byKey.values()];
}

/** NUL, or half of a surrogate pair (a made-up method cut at 100 UTF-16 units), or a lone one. */
const UNSTORABLE = /[\u0000\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text PostgreSQL takes in JSON: without NUL (which no text column or json value may hold) and with a lone
 * surrogate replaced by U+FFFD. A caller's made-up method must not fail the batch of every key in the window.
 */
function storableText(s: string): string {
  if (!UNSTORABLE.test(s)) return s;
  return s.replace(/\u0000/g, '').replace(LONE_SURROGATE, '\ufffd');
}

/** A non-negative integer, halves rounded up; anything not finite is 0. */
function roundCount(x: number): number {
  return Number.isFinite(x) && x > 0 ? Math.min(Math.round(x), INT32_MAX) : 0;
}
