/**
 * The request log stored one row per key and flush window (request_log_windows), on each database: windows of
 * several gateways overlap in time and share milliseconds, and still the read answers exactly the key's newest
 * REQUEST_LOG_MAX_ROWS_PER_KEY entries in order (checked against a plain sort of every entry written), the
 * filters apply within them, and the prune leaves exactly what the read shows (whole windows deleted, straddling
 * ones rewritten), idempotently. And a database of the earlier one-row-per-entry table keeps its entries when
 * migration 0024 moves them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  REQUEST_LOG_MAX_ROWS_PER_KEY,
  type TRequestLogFilter,
  type TRequestLogResult,
} from '@rpc/contract';
import { requestLogWindows, type TDatabase, type TOpenedDatabase } from '@rpc/db';
import type { TRequestLogEntry } from '@rpc/gateway';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApiKeyRequestLogs } from '../src/services/request-logs/get-api-key-request-logs';
import { pruneRequestLogs } from '../src/services/request-logs/prune-request-logs';
import { writeRequestLogBatch } from '../src/services/request-logs/write-request-log-batch';
import { TEST_DATABASES } from './helpers/databases';
import { legacyDatabase } from './helpers/legacy-database';
import { seededRandom } from './helpers/seeded-random';

const HOUR = 3_600_000;
const RETENTION_HOURS = 72;
const MAX = REQUEST_LOG_MAX_ROWS_PER_KEY;
const METHODS = ['eth_call', 'eth_blockNumber', 'eth_getLogs', 'net_version', ''];
const OUTCOMES = ['ok', 'rpc_error', 'refused', 'upstream_failed', 'cancelled'] as const;

/** An entry as the read answers it, with where it was written (batch, place) for the reference order. */
type TWritten = {
  shown: TRequestLogResult['list'][number];
  batch: number;
  place: number;
};

const byNewest = (a: TWritten, b: TWritten) =>
  b.shown.at - a.shown.at || b.batch - a.batch || b.place - a.place;

async function accountWithKeys(db: TDatabase, keys: number) {
  const accountId = randomUUID();
  const keyIds = Array.from({ length: keys }, () => randomUUID());
  await db.execute(
    sql.raw(`insert into accounts (id, kind, name) values ('${accountId}', 'personal', 'windows')`),
  );
  await db.execute(
    sql.raw(
      `insert into api_keys (id, account_id, name, key_hash, key_ciphertext) values ${keyIds
        .map(
          (k, i) =>
            `('${k}', '${accountId}', 'k${i}', '${randomBytes(16).toString('hex')}', 'v1:t')`,
        )
        .join(', ')}`,
    ),
  );
  return { accountId, keyIds };
}

/** Every page of the read, as it answers. */
async function readAll(
  db: TDatabase,
  accountId: string,
  keyId: string,
  now: number,
  filter: { outcome?: TRequestLogFilter; method?: string; from?: number; to?: number } = {},
) {
  const list: TRequestLogResult['list'] = [];
  let total = -1;
  for (let page = 1; page <= 20; page += 1) {
    const res = await getApiKeyRequestLogs({
      deps: {
        db,
        clock: { now: () => now },
        config: { requestLogRetentionHours: RETENTION_HOURS },
      },
      caller: { account: { id: accountId } },
      params: { keyId, page, perPage: 100, outcome: filter.outcome ?? 'all', ...filter },
    });
    total = res.total;
    list.push(...res.list);
    if (res.list.length < 100) break;
  }
  return { list, total };
}

async function storedEntries(db: TDatabase, keyId: string) {
  const windows = await db
    .select()
    .from(requestLogWindows)
    .where(eq(requestLogWindows.keyId, keyId));
  for (const w of windows) {
    // Every window's bounds and count say what it holds.
    expect(w.entries).toHaveLength(w.n);
    expect(w.firstAt.getTime()).toBe(Math.min(...w.entries.map((e) => e[0])));
    expect(w.lastAt.getTime()).toBe(Math.max(...w.entries.map((e) => e[0])));
  }
  return windows.flatMap((w) => w.entries.map((e) => `${e[0]} ${e[2]} ${e[4]} ${e[6]}`)).sort();
}

const brief = (e: TRequestLogResult['list'][number]) =>
  `${e.at} ${e.method} ${e.outcome} ${e.latencyMs}`;

describe.each(TEST_DATABASES)('request log windows on $name', ({ open }) => {
  let opened: TOpenedDatabase;
  let db: TDatabase;
  beforeAll(async () => {
    opened = await open();
    db = opened.db;
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('answers exactly the newest entries across overlapping windows, and the prune keeps exactly them', async () => {
    const random = seededRandom(17);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    const { accountId, keyIds } = await accountWithKeys(db, 2);
    const [key, other] = keyIds as [string, string];
    const base = Date.now() - 75 * HOUR;
    const written: TWritten[] = [];
    const otherAts: number[] = [];
    // 60 flushes of two "gateways" whose windows overlap by seconds; times on whole seconds, so many ties.
    for (let batch = 0; batch < 60; batch += 1) {
      const entries: TRequestLogEntry[] = [];
      const size = Math.floor(random() * 50);
      for (let place = 0; place < size; place += 1) {
        const at = base + batch * 4000 + Math.floor(random() * 12) * 1000;
        const entry: TRequestLogEntry = {
          at,
          accountId,
          keyId: key,
          chain: 'localnet',
          method: pick(METHODS),
          transport: random() < 0.5 ? 'http' : 'ws',
          outcome: pick(OUTCOMES),
          errorCode: random() < 0.5 ? null : -32000,
          latencyMs: Math.floor(random() * 40) / 4,
          ru: Math.floor(random() * 30),
        };
        entries.push(entry);
        written.push({
          batch,
          place: entries.length - 1,
          shown: {
            at,
            chain: entry.chain,
            method: entry.method,
            transport: entry.transport,
            outcome: entry.outcome,
            errorCode: entry.errorCode,
            latencyMs: Math.round(entry.latencyMs),
            ru: entry.ru,
          },
        });
        // Another key of the account interleaved in the same flushes.
        if (random() < 0.2) {
          entries.push({ ...entry, keyId: other });
          otherAts.push(at);
        }
      }
      await writeRequestLogBatch(db, {
        batchId: randomUUID(),
        createdAt: base,
        entries,
        dropped: [],
      });
    }
    expect(written.length).toBeGreaterThan(MAX + 200);

    // The read, on a clock where nothing has expired yet: every page, in order, exactly the newest MAX.
    const early = base + 71 * HOUR;
    const newest = [...written].sort(byNewest).slice(0, MAX);
    const all = await readAll(db, accountId, key, early);
    expect(all.total).toBe(MAX);
    expect(all.list).toEqual(newest.map((w) => w.shown));
    expect((await readAll(db, accountId, other, early)).total).toBe(otherAts.length);

    // Filters apply within the newest MAX, in the same order.
    const refused = newest.filter((w) => w.shown.outcome === 'refused');
    const got = await readAll(db, accountId, key, early, { outcome: 'refused' });
    expect(got.total).toBe(refused.length);
    expect(got.list.map(brief)).toEqual(refused.map((w) => brief(w.shown)));
    const from = base + 30 * 4000;
    const to = base + 40 * 4000;
    const logs = newest.filter(
      (w) => w.shown.method.includes('Logs') && w.shown.at >= from && w.shown.at < to,
    );
    const ranged = await readAll(db, accountId, key, early, { method: 'logs', from, to });
    expect(ranged.list.map(brief)).toEqual(logs.map((w) => brief(w.shown)));
    expect(ranged.total).toBe(logs.length);

    // Retention from now: the cutoff falls inside the flushes, so windows expire whole and some straddle it.
    const now = base + RETENTION_HOURS * HOUR + 10 * 4000;
    const cutoff = now - RETENTION_HOURS * HOUR;
    const live = [...written].sort(byNewest).filter((w) => w.shown.at >= cutoff);
    expect(live.length).toBeGreaterThan(MAX);
    const afterRetention = await readAll(db, accountId, key, now);
    expect(afterRetention.list).toEqual(live.slice(0, MAX).map((w) => w.shown));

    const pruned = await pruneRequestLogs({
      db,
      now,
      retentionHours: RETENTION_HOURS,
      chunkSize: 3,
    });
    expect(pruned.expired).toBe(
      written.length - live.length + otherAts.filter((at) => at < cutoff).length,
    );
    expect(pruned.overflow).toBe(live.length - MAX);
    expect(await storedEntries(db, key)).toEqual(
      live
        .slice(0, MAX)
        .map((w) => `${w.shown.at} ${w.shown.method} ${w.shown.outcome} ${w.shown.latencyMs}`)
        .sort(),
    );
    // What is stored is what the read shows, and a second pass changes nothing.
    expect((await readAll(db, accountId, key, now)).list).toEqual(afterRetention.list);
    expect(await pruneRequestLogs({ db, now, retentionHours: RETENTION_HOURS })).toEqual({
      expired: 0,
      overflow: 0,
      drops: 0,
    });
    expect(await storedEntries(db, key)).toHaveLength(MAX);
  });

  it('finds a newer entry in a window that ends earlier than the windows holding the newest entries', async () => {
    const { accountId, keyIds } = await accountWithKeys(db, 1);
    const key = keyIds[0]!;
    const t = Date.now() - HOUR;
    const entry = (at: number, method: string): TRequestLogEntry => ({
      at,
      accountId,
      keyId: key,
      chain: 'localnet',
      method,
      transport: 'http',
      outcome: 'ok',
      errorCode: null,
      latencyMs: 1,
      ru: 1,
    });
    // Gateway A's window: MAX entries over a second, ending last. Gateway B's: one entry that ends 1 ms before
    // A's, so it is not among "the newest windows until MAX entries", yet it is newer than A's oldest entries.
    await writeRequestLogBatch(db, {
      batchId: randomUUID(),
      createdAt: t,
      entries: Array.from({ length: MAX }, (_, i) => entry(t + 1000 + i, `eth_a${i}`)),
      dropped: [],
    });
    await writeRequestLogBatch(db, {
      batchId: randomUUID(),
      createdAt: t,
      entries: [entry(t + 1000 + MAX - 2, 'eth_b')],
      dropped: [],
    });
    const got = await readAll(db, accountId, key, t);
    expect(got.total).toBe(MAX);
    // A's newest, then B's (same millisecond as one of A's: the later window first), down to A's second oldest.
    expect(got.list.slice(0, 3).map((e) => e.method)).toEqual([
      `eth_a${MAX - 1}`,
      'eth_b',
      `eth_a${MAX - 2}`,
    ]);
    expect(got.list.at(-1)!.method).toBe('eth_a1');
    expect(await pruneRequestLogs({ db, now: t, retentionHours: RETENTION_HOURS })).toMatchObject({
      overflow: 1,
    });
    expect(await storedEntries(db, key)).toHaveLength(MAX);
    expect((await readAll(db, accountId, key, t)).list).toEqual(got.list);
  });

  it('stores what a hostile caller sent as a method without failing the window of every key', async () => {
    const { accountId, keyIds } = await accountWithKeys(db, 2);
    const [hostile, bystander] = keyIds as [string, string];
    const now = Date.now();
    const entry = (
      keyId: string,
      i: number,
      over: Partial<TRequestLogEntry>,
    ): TRequestLogEntry => ({
      at: now - 10 + i,
      accountId,
      keyId,
      chain: 'localnet',
      method: 'eth_call',
      transport: 'http',
      outcome: 'refused',
      errorCode: -32601,
      latencyMs: 0,
      ru: 0,
      ...over,
    });
    // The gateway keeps 100 UTF-16 units of a made-up method: an emoji cut in half leaves a lone surrogate.
    const cut = `${'x'.repeat(99)}\u{1F600}`.slice(0, 100);
    const written = await writeRequestLogBatch(db, {
      batchId: randomUUID(),
      createdAt: now,
      entries: [
        entry(hostile, 0, { method: 'eth\u0000call' }),
        entry(hostile, 1, { method: cut }),
        entry(hostile, 2, { method: '\udc00tail', chain: 'dn:\u0000' }),
        entry(hostile, 3, { method: 'ok\u{1F600}', errorCode: -2_147_483_648 }),
        entry(hostile, 4, { errorCode: 2_147_483_648, latencyMs: Number.NaN, ru: -3 }),
        entry(hostile, 5, { errorCode: 1.5, latencyMs: Number.POSITIVE_INFINITY }),
        entry(bystander, 6, { method: 'eth_blockNumber', outcome: 'ok', errorCode: null, ru: 10 }),
      ],
      dropped: [],
    });
    expect(written.entries).toBe(7);
    const got = (await readAll(db, accountId, hostile, now)).list;
    expect(got.map((e) => [e.method, e.chain, e.errorCode, e.latencyMs, e.ru])).toEqual([
      ['eth_call', 'localnet', null, 0, 0],
      ['eth_call', 'localnet', null, 0, 0],
      ['ok\u{1F600}', 'localnet', -2_147_483_648, 0, 0],
      ['\ufffdtail', 'dn:', -32601, 0, 0],
      [`${'x'.repeat(99)}\ufffd`, 'localnet', -32601, 0, 0],
      ['ethcall', 'localnet', -32601, 0, 0],
    ]);
    expect((await readAll(db, accountId, bystander, now)).list.map((e) => e.method)).toEqual([
      'eth_blockNumber',
    ]);
  });
});

describe.each(TEST_DATABASES)('an upgraded request log on $name', ({ name: kind }) => {
  let dispose: () => Promise<void> = async () => {};
  afterAll(async () => {
    await dispose();
  });

  it('keeps every entry of the one-row-per-entry table, in its order, when migration 0024 moves them', async () => {
    const accountId = randomUUID();
    const keyId = randomUUID();
    const now = Date.now();
    // Two minutes and a tie inside each: the earlier id first among equal times.
    const rows = [
      { at: now - 90_000, method: 'eth_a', outcome: 'ok', code: 'null', latency: 3, ru: 10 },
      {
        at: now - 90_000,
        method: 'eth_b',
        outcome: 'rpc_error',
        code: '-32000',
        latency: 4,
        ru: 10,
      },
      { at: now - 30_000, method: '', outcome: 'refused', code: '-32700', latency: 0, ru: 0 },
      { at: now - 30_000, method: 'eth_c', outcome: 'ok', code: 'null', latency: 7, ru: 20 },
      { at: now - 1_000, method: 'eth_d', outcome: 'cancelled', code: 'null', latency: 9, ru: 0 },
    ];
    const seed = `
      insert into accounts (id, kind, name) values ('${accountId}', 'personal', 'legacy');
      insert into api_keys (id, account_id, name, key_hash, key_ciphertext)
        values ('${keyId}', '${accountId}', 'k', '${randomBytes(16).toString('hex')}', 'v1:legacy');
      insert into request_logs (account_id, key_id, at, chain, method, transport, outcome, error_code, latency_ms, ru)
        values ${rows
          .map(
            (r) =>
              `('${accountId}', '${keyId}', '${new Date(r.at).toISOString()}', 'localnet', '${r.method}', 'http', '${r.outcome}', ${r.code}, ${r.latency}, ${r.ru})`,
          )
          .join(', ')};`;
    const legacy = await legacyDatabase(kind, '0023_invoice_seller_snapshot', seed, 3);
    dispose = legacy.destroy;
    const upgraded = await legacy.open();
    try {
      const got = await readAll(upgraded.db, accountId, keyId, now);
      expect(got.total).toBe(rows.length);
      expect(got.list).toEqual(
        [...rows].reverse().map((r) => ({
          at: r.at,
          chain: 'localnet',
          method: r.method,
          transport: 'http',
          outcome: r.outcome,
          errorCode: r.code === 'null' ? null : Number(r.code),
          latencyMs: r.latency,
          ru: r.ru,
        })),
      );
      // A window per key and minute.
      expect(await storedEntries(upgraded.db, keyId)).toHaveLength(rows.length);
      const windows = await upgraded.db.select().from(requestLogWindows);
      expect(windows.length).toBeGreaterThanOrEqual(2);
      expect(windows.length).toBeLessThanOrEqual(3);
    } finally {
      await upgraded.close();
    }
  });
});
