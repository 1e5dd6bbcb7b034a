/**
 * npm run bench:reports — issue 4's benchmark: a year of usage for one account (50 keys, 5 networks, 40 methods;
 * tens of millions of minute rows before rollup) plus two small noisy accounts, then every hub_report* method over
 * HTTP POST /api on a real console server, p50/p99/max per method and request shape, on PostgreSQL and PGlite;
 * written to docs/benchmarks.md (the Reports blocks only).
 *
 * Generation is set-based SQL, one local day per statement (bench/reports-data.ts), rolled up exactly as the
 * usage write path does; minute rows are kept only for the retention window. At the end one real batch goes
 * through writeUsageBatch, and the rollups are checked against the generated totals and against the minute rows.
 *
 * Options (env):
 *   BENCH_DB             "postgres,pglite" (default), "postgres" or "pglite"
 *   DAYS                 days of usage (365)
 *   ROWS_PER_MINUTE      minute-row slots per minute for the big account (40 → ≈ 19.5 M rows a year)
 *   PGLITE_ROWS_PER_MINUTE  the same on PGlite (default ROWS_PER_MINUTE)
 *   GEN_CONCURRENCY      generating statements at once on PostgreSQL (2)
 *   CALLS                measured calls per method and shape (100), WARMUP (5)
 *   CELL_SECONDS         stop a cell early after this long once MIN_CALLS (5) calls are in (10); warm-up stops
 *                        after 2 s (at least one call)
 *   BENCH_PG_ADMIN_URL   where to create and drop the fresh database (postgres://postgres@127.0.0.1:5432/postgres);
 *                        DATABASE_URL instead uses that database as it is (left in place)
 *   BENCH_WRITE_DOC=0    print only
 *   BENCH_SHAPES         only these shapes (ids, comma-separated: 1h,24h,7d,30d,365d,30d-net,365d-net,30d-tz,
 *                        365d-tz,24h-key,365d-key); default all
 *   BENCH_METHODS        only these methods (names without hub_report, comma-separated, e.g.
 *                        UserCompositeInfoByApikey,ApikeyRequest); default all
 *   BENCH_CELLS=slow     only the 13 cells issue 17 item 6 was about (the misses of the 2026-11-22 run)
 *                        Any of the three filters prints only: a partial table is never written to the doc.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DEFAULT_MINUTE_RETENTION_DAYS,
  METHOD_NAMES,
  type TMethodName,
  type TReportCompositeInfo,
} from '@rpc/contract';
import { sql } from 'drizzle-orm';
import { Pool } from 'undici';
import { createHarness, type THarness } from '../apps/server/test/helpers/harness';
import { BENCH_DOC, ROOT, machine, writeBenchSection } from './bench-doc';
import { openBenchDatabase, type TBenchDatabase, type TBenchDbKind } from './reports-db';
import {
  BENCH_CHAINS,
  BENCH_METHODS,
  DAY,
  HOUR,
  MINUTE,
  createKeys,
  createNoiseAccount,
  generateUsage,
  personalAccountOf,
  rollupDifferences,
  RETENTION_TABLES,
  tableSizes,
  tableTotals,
  writeRealBatch,
  USAGE_TABLES,
  type TBenchAccount,
  type TGenerated,
} from './reports-data';

const DBS = (process.env.BENCH_DB ?? 'postgres,pglite').split(',') as TBenchDbKind[];
const DAYS = Number(process.env.DAYS ?? 365);
const ROWS_PER_MINUTE = Number(process.env.ROWS_PER_MINUTE ?? 40);
const PGLITE_ROWS_PER_MINUTE = Number(process.env.PGLITE_ROWS_PER_MINUTE ?? ROWS_PER_MINUTE);
/** statements generating at once on PostgreSQL (PGlite runs one at a time anyway) */
const GEN_CONCURRENCY = Number(process.env.GEN_CONCURRENCY ?? 2);
const CALLS = Number(process.env.CALLS ?? 100);
const WARMUP = Number(process.env.WARMUP ?? 5);
const MIN_CALLS = Number(process.env.MIN_CALLS ?? 5);
const CELL_SECONDS = Number(process.env.CELL_SECONDS ?? 10);
const RETENTION_DAYS = Number(
  process.env.USAGE_MINUTE_RETENTION_DAYS ?? DEFAULT_MINUTE_RETENTION_DAYS,
);
const listEnv = (name: string): string[] | undefined =>
  process.env[name]
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const ONLY_SHAPES = listEnv('BENCH_SHAPES');
const ONLY_METHODS = listEnv('BENCH_METHODS')?.map((m) =>
  m.startsWith('hub_report') ? m : `hub_report${m}`,
);
/** The 13 misses of the 2026-11-22 PostgreSQL run (method without hub_report, shape id). */
const SLOW_CELLS = [
  ...[
    'UsageInfoByApikey',
    'UserCompositeInfo',
    'UserCompositeInfoByApikey',
    'UserRequestByApikey',
    'UserRuUsageByApikey',
    'ApikeyCompositeInfo',
    'ApikeyRequest',
    'ApikeyRuUsage',
  ].map((m) => `${m}@365d-tz`),
  'UserTop5MethodRuCostByApikey@365d-key',
  'UserTop5MethodRuCostByNetwork@365d-key',
  'UserCompositeInfoByApikey@365d',
  'UserCompositeInfoByApikey@365d-net',
  'UserCompositeInfoByApikey@30d-tz',
];
const ONLY_SLOW = process.env.BENCH_CELLS === 'slow';
const FILTERED = ONLY_SHAPES !== undefined || ONLY_METHODS !== undefined || ONLY_SLOW;
/** Whether a cell is in this run (every cell unless filtered). */
const wanted = (method: string, shapeId: string): boolean =>
  (!ONLY_SHAPES || ONLY_SHAPES.includes(shapeId)) &&
  (!ONLY_METHODS || ONLY_METHODS.includes(method)) &&
  (!ONLY_SLOW || SLOW_CELLS.includes(`${method.replace(/^hub_report/, '')}@${shapeId}`));
const WRITE_DOC = process.env.BENCH_WRITE_DOC !== '0' && !FILTERED;
const KEYS = 50;
const PGLITE_VERSION = (
  JSON.parse(
    readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string }
).version;
const ACCOUNT_ZONE = 'Asia/Shanghai';
/** A caller in another zone than the account's: day buckets come from usage_hour then. */
const OTHER_ZONE = 'America/New_York';
const TARGET_P99_MS = 100;
/** cells explained (default: those over the target) */
const EXPLAIN_OVER_MS = Number(process.env.BENCH_EXPLAIN_OVER_MS ?? TARGET_P99_MS);

/** The database of the run in progress, for the signal handler. */
let current: TBenchDatabase | undefined;

const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

type TShape = {
  id: string;
  label: string;
  range: number;
  bucket: 'minute' | 'hour' | 'day';
  otherZone?: boolean;
  chain?: boolean;
  key?: boolean;
};

const SHAPES: TShape[] = [
  { id: '1h', label: '1 h, minute', range: HOUR, bucket: 'minute' },
  { id: '24h', label: '24 h, hour', range: DAY, bucket: 'hour' },
  { id: '7d', label: '7 d, hour', range: 7 * DAY, bucket: 'hour' },
  { id: '30d', label: '30 d, day', range: 30 * DAY, bucket: 'day' },
  { id: '365d', label: '365 d, day', range: 365 * DAY, bucket: 'day' },
  { id: '30d-net', label: '30 d, day, 1 network', range: 30 * DAY, bucket: 'day', chain: true },
  { id: '365d-net', label: '365 d, day, 1 network', range: 365 * DAY, bucket: 'day', chain: true },
  { id: '30d-tz', label: '30 d, day, other zone', range: 30 * DAY, bucket: 'day', otherZone: true },
  {
    id: '365d-tz',
    label: '365 d, day, other zone',
    range: 365 * DAY,
    bucket: 'day',
    otherZone: true,
  },
  { id: '24h-key', label: '24 h, hour, 1 key', range: DAY, bucket: 'hour', key: true },
  { id: '365d-key', label: '365 d, day, 1 key', range: 365 * DAY, bucket: 'day', key: true },
];

/** hub_reportApikey* always name one key: their "1 key" shapes would repeat the plain ones. */
const isApikeyMethod = (m: string) => m.startsWith('hub_reportApikey');

const REPORT_METHODS = METHOD_NAMES.filter((m) => m.startsWith('hub_report')).sort(
  (a, b) => Number(isApikeyMethod(a)) - Number(isApikeyMethod(b)) || (a < b ? -1 : 1),
);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

type TCell = {
  method: TMethodName;
  shape: TShape;
  n: number;
  p50: number;
  p99: number;
  max: number;
  error?: string;
};

type TRunResult = {
  kind: TBenchDbKind;
  version: string;
  rowsPerMinute: number;
  generated: Map<string, TGenerated>;
  accounts: TBenchAccount[];
  genMs: number;
  analyzeMs: number;
  batch: { rows: number; ms: number };
  totalsOk: string[];
  differences: Record<string, number>;
  compositeCheck: string;
  sizes: Awaited<ReturnType<typeof tableSizes>>;
  cells: TCell[];
  /** per cell over the target: its slowest usage query and plan, and the execution time of all its queries */
  plans: Array<{ cell: TCell; query: string; plan: string[]; dbMs: number; queries: number }>;
  load: number[];
  loadEnd: number[];
  firstOtherZone?: { method: string; label: string; ms: number } | undefined;
  measureMs: number;
  /** the commit the report handlers were measured at, and whether they had uncommitted changes */
  code: string;
};

/** HEAD, plus a note when the report services or the usage write path differ from it. */
function codeVersion(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    const dirty = execFileSync(
      'git',
      [
        'status',
        '--porcelain',
        '--',
        'apps/server/src/services/reports',
        'apps/server/src/services/usage',
      ],
      { cwd: ROOT, encoding: 'utf8' },
    ).trim();
    return dirty ? `${head} with uncommitted changes to the report services` : head;
  } catch {
    return 'unknown';
  }
}

/** Taken once, before anything runs: tsx has loaded the handlers by then. */
const STARTED_AT_CODE = codeVersion();

async function runOne(kind: TBenchDbKind): Promise<TRunResult> {
  const rowsPerMinute = kind === 'pglite' ? PGLITE_ROWS_PER_MINUTE : ROWS_PER_MINUTE;
  const load = os.loadavg();
  // The code this process loaded at start (later commits do not change what it runs).
  const code = STARTED_AT_CODE;
  const bdb: TBenchDatabase = await openBenchDatabase(kind);
  current = bdb;
  log(`${kind}: database ${bdb.where}`);
  let h: THarness | undefined;
  try {
    h = await createHarness(async () => bdb.opened, {
      env: { USAGE_MINUTE_RETENTION_DAYS: RETENTION_DAYS } as never,
    });
    const db = h.database.db;
    const version = await bdb.version();
    const user = await h.signUp();
    const now = h.clock.now();
    const yearTo = Math.floor(now / MINUTE) * MINUTE;
    const yearFrom = yearTo - DAYS * DAY;
    const keepFrom = yearTo - RETENTION_DAYS * DAY;
    const createdAt = new Date(yearFrom - DAY);

    const mainId = await personalAccountOf(db, user.email, ACCOUNT_ZONE);
    const main: TBenchAccount = {
      accountId: mainId,
      timeZone: ACCOUNT_ZONE,
      keyIds: await createKeys(db, h.server.deps.apiKeyCipher, mainId, KEYS, createdAt),
      rowsPerMinute,
      seed: 1,
    };
    const noise: TBenchAccount[] = [];
    for (const [i, zone, rpm] of [
      [1, 'America/New_York', 4],
      [2, 'UTC', 2],
    ] as const) {
      const id = await createNoiseAccount(db, `bench noise ${i}`, zone);
      noise.push({
        accountId: id,
        timeZone: zone,
        keyIds: await createKeys(db, h.server.deps.apiKeyCipher, id, 5, createdAt),
        rowsPerMinute: rpm,
        seed: 100 * i + 1,
      });
    }
    const list = [main, ...noise];

    log(
      `${kind}: generating ${DAYS} days, ${rowsPerMinute} slots/minute for the big account, keeping ${RETENTION_DAYS} days of minute rows…`,
    );
    const t0 = performance.now();
    const generated = await generateUsage(
      db,
      list,
      { from: yearFrom, to: yearTo, keepFrom },
      kind === 'postgres' ? GEN_CONCURRENCY : 1,
      (done, total, ms) => {
        if (done % 50 === 0 || done === total)
          log(
            `${kind}: ${done}/${total} days, ${(ms / 1000).toFixed(0)} s, ETA ${(((ms / done) * (total - done)) / 1000).toFixed(0)} s`,
          );
      },
    );
    const genMs = performance.now() - t0;
    const g = generated.get(mainId)!;
    log(
      `${kind}: generated ${g.minuteRows} minute rows (${g.keptRows} kept) for the big account in ${(genMs / 1000).toFixed(0)} s; per day ${(g.oldMs / Math.max(1, g.oldChunks)).toFixed(0)} ms rollups only, ${((g.ms - g.oldMs) / Math.max(1, g.chunks - g.oldChunks)).toFixed(0)} ms with minute rows`,
    );

    // What autovacuum would have done on a live database: statistics and the visibility map.
    const ta = performance.now();
    await db.execute(sql.raw(`vacuum analyze ${USAGE_TABLES.join(', ')}, api_keys, accounts`));
    const analyzeMs = performance.now() - ta;

    // One real batch through the production write path, then every check.
    const batch = await writeRealBatch(db, list, now);
    log(
      `${kind}: real batch of ${batch.rows} rows through writeUsageBatch in ${batch.ms.toFixed(0)} ms`,
    );
    const totals = await tableTotals(db);
    const totalsOk: string[] = [];
    for (const a of list) {
      const gen = generated.get(a.accountId)!;
      const b = batch.totals.get(a.accountId) ?? { requests: 0, ru: 0 };
      const want = { requests: gen.requests + b.requests, ru: gen.ru + b.ru };
      for (const table of USAGE_TABLES.filter((t) => !RETENTION_TABLES.includes(t))) {
        const got = totals[table]!.get(a.accountId) ?? { requests: 0, ru: 0 };
        if (got.requests !== want.requests || got.ru !== want.ru)
          throw new Error(
            `${table} of ${a.accountId}: ${got.requests} requests / ${got.ru} RU, generated ${want.requests} / ${want.ru}`,
          );
      }
      totalsOk.push(`${want.requests} requests, ${want.ru} RU`);
    }
    const differences = await rollupDifferences(db, keepFrom);
    if (Object.values(differences).some((n) => n !== 0))
      throw new Error(`rollups differ from the minute rows: ${JSON.stringify(differences)}`);
    log(`${kind}: rollups match the generated totals and the minute rows`);

    // The server, over HTTP like the console.
    const url = await h.server.start();
    const pool = new Pool(url, { connections: 1, pipelining: 1 });
    const call = async (method: string, params: Record<string, unknown>) => {
      const t = performance.now();
      const res = await pool.request({
        path: '/api',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
        body: JSON.stringify({ id: 1, method, params }),
      });
      const text = await res.body.text();
      const ms = performance.now() - t;
      const body = JSON.parse(text) as {
        result?: unknown;
        error?: { code: number; message: string };
      };
      return { ms, body };
    };

    const paramsOf = (method: string, shape: TShape) => ({
      from: now - shape.range,
      to: now,
      bucket: shape.bucket,
      timeZone: shape.otherZone ? OTHER_ZONE : ACCOUNT_ZONE,
      ...(shape.chain ? { chain: BENCH_CHAINS[0] } : {}),
      ...(isApikeyMethod(method)
        ? { keyId: main.keyIds[0] }
        : shape.key
          ? { scope: 'apikey', keyId: main.keyIds[0] }
          : { scope: 'team' }),
    });

    // The year's totals through the API must be the generated ones.
    const composite = await call('hub_reportUserCompositeInfo', paramsOf('', SHAPES[4]!));
    const info = composite.body.result as TReportCompositeInfo | undefined;
    const want = {
      requests: g.requests + (batch.totals.get(mainId)?.requests ?? 0),
      ru: g.ru + (batch.totals.get(mainId)?.ru ?? 0),
    };
    const compositeCheck = !info
      ? `failed: ${JSON.stringify(composite.body.error)}`
      : info.requests === want.requests && info.ru === want.ru
        ? `hub_reportUserCompositeInfo over 365 d answers exactly the generated totals (${info.requests} requests, ${info.ru} RU, ${info.activeKeys} active keys, ${info.activeNetworks} networks)`
        : `MISMATCH: API ${info.requests} requests / ${info.ru} RU, generated ${want.requests} / ${want.ru}`;
    log(`${kind}: ${compositeCheck}`);

    const cells: TCell[] = [];
    /** the first call in the other zone: it starts keeping that zone's offsets (a backfill from usage_hour) */
    let firstOtherZone: TRunResult['firstOtherZone'];
    const tm = performance.now();
    for (const method of REPORT_METHODS) {
      for (const shape of SHAPES) {
        if (shape.key && isApikeyMethod(method)) continue;
        if (!wanted(method, shape.id)) continue;
        const params = paramsOf(method, shape);
        let error: string | undefined;
        const warm = performance.now();
        for (let i = 0; i < WARMUP && !error && (i === 0 || performance.now() - warm < 2000); i++) {
          const r = await call(method, params);
          if (r.body.error) error = `${r.body.error.code} ${r.body.error.message}`;
          if (i === 0 && shape.otherZone && !firstOtherZone)
            firstOtherZone = { method, label: shape.label, ms: r.ms };
        }
        const times: number[] = [];
        const started = performance.now();
        while (!error && times.length < CALLS) {
          const r = await call(method, params);
          if (r.body.error) error = `${r.body.error.code} ${r.body.error.message}`;
          times.push(r.ms);
          if (times.length >= MIN_CALLS && performance.now() - started > CELL_SECONDS * 1000) break;
        }
        times.sort((a, b) => a - b);
        const cell: TCell = {
          method,
          shape,
          n: times.length,
          p50: percentile(times, 50),
          p99: percentile(times, 99),
          max: times[times.length - 1] ?? NaN,
          ...(error ? { error } : {}),
        };
        cells.push(cell);
        log(
          `${kind}: ${method} ${shape.label}: ${error ? `ERROR ${error}` : `n=${cell.n} p50 ${cell.p50.toFixed(1)} p99 ${cell.p99.toFixed(1)} max ${cell.max.toFixed(1)} ms`}`,
        );
      }
    }
    const measureMs = performance.now() - tm;

    // Where the time of each cell over the target goes: one call with its SQL recorded, every usage query of it
    // explained (ANALYZE, BUFFERS). The database's share is the sum of their execution times.
    const plans: TRunResult['plans'] = [];
    const missed = cells
      .filter((c) => !c.error && c.p99 > EXPLAIN_OVER_MS)
      .sort((a, b) => b.p99 - a.p99)
      .slice(0, 24);
    for (const cell of missed) {
      bdb.capture.queries = [];
      bdb.capture.on = true;
      await call(cell.method, paramsOf(cell.method, cell.shape));
      bdb.capture.on = false;
      const usage = bdb.capture.queries.filter((q) => /usage_(minute|hour|day)/.test(q.query));
      let dbMs = 0;
      let best: TRunResult['plans'][number] | undefined;
      let bestMs = -1;
      for (const q of usage) {
        const plan = await bdb.explain(q);
        const ms = Number(/Execution Time: ([\d.]+)/.exec(plan.join('\n'))?.[1] ?? 0);
        dbMs += ms;
        if (ms > bestMs) {
          bestMs = ms;
          best = { cell, query: q.query, plan, dbMs: 0, queries: usage.length };
        }
      }
      if (best) plans.push({ ...best, dbMs });
    }
    await pool.close();
    const sizes = await tableSizes(db);
    return {
      kind,
      version,
      rowsPerMinute,
      generated,
      accounts: list,
      genMs,
      analyzeMs,
      batch,
      totalsOk,
      differences,
      compositeCheck,
      sizes,
      cells,
      plans,
      load,
      loadEnd: os.loadavg(),
      firstOtherZone,
      measureMs,
      code,
    };
  } finally {
    await h?.close().catch((err: unknown) => console.error(err));
    await bdb.destroy().catch((err: unknown) => console.error(err));
    current = undefined;
  }
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const fmt = (n: number) => n.toLocaleString('en-US');
const ms1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');

function renderRun(r: TRunResult): string {
  const main = r.accounts[0]!;
  const g = r.generated.get(main.accountId)!;
  const noiseRows = r.accounts
    .slice(1)
    .map((a) => r.generated.get(a.accountId)!.minuteRows)
    .reduce((s, n) => s + n, 0);
  const title = r.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const lines: string[] = [];
  lines.push(`### ${title}`, '');
  lines.push(
    `Run ${new Date().toISOString()}, ${r.version}${r.kind === 'pglite' ? ` (PGlite ${PGLITE_VERSION}, WASM, in this Node process, data in a temp dir)` : ' (separate server on 127.0.0.1, fresh database)'}. ` +
      `Report handlers at ${r.code}. Load average at the start ${r.load.map((l) => l.toFixed(2)).join(', ')}, at the end ${r.loadEnd.map((l) => l.toFixed(2)).join(', ')} ` +
      '(2 vCPUs shared with other work: compare cells within one run, not across runs).',
    '',
  );
  lines.push(
    `Data: ${DAYS} days, ${r.rowsPerMinute} row slots per minute for the big account (${KEYS} keys, ${BENCH_CHAINS.length} networks, ${BENCH_METHODS.length} methods) → ` +
      `**${fmt(g.minuteRows)} minute rows generated** (${fmt(g.requests)} requests, ${fmt(g.ru)} RU), ${fmt(g.keptRows)} kept (last ${RETENTION_DAYS} days); ` +
      `two noisy accounts (5 keys each, America/New_York and UTC) ${fmt(noiseRows)} more. ` +
      `Generated and rolled up in ${(r.genMs / 1000).toFixed(0)} s (${fmt(Math.round((g.minuteRows + noiseRows) / (r.genMs / 1000)))} minute rows/s; one statement per account and local day, ${r.kind === 'postgres' ? GEN_CONCURRENCY : 1} at a time; a day of the big account took ${(g.oldMs / Math.max(1, g.oldChunks) / 1000).toFixed(2)} s before the retention window and ${((g.ms - g.oldMs) / Math.max(1, g.chunks - g.oldChunks) / 1000).toFixed(2)} s inside it, where its minute rows are stored too), vacuum analyze ${(r.analyzeMs / 1000).toFixed(1)} s.`,
    '',
  );
  lines.push('| table | rows | size (table + indexes) |', '| --- | --: | --: |');
  for (const t of r.sizes.tables) lines.push(`| ${t.table} | ${fmt(t.rows)} | ${mb(t.bytes)} |`);
  lines.push(`| whole database | | ${mb(r.sizes.dbBytes)} |`, '');
  lines.push(
    `Checks: one real batch of ${r.batch.rows} rows (some adding to generated minute rows, some in the current minute, two accounts) went through \`writeUsageBatch\` in ${r.batch.ms.toFixed(0)} ms; ` +
      `every rollup's per-account sum of requests and RUs equals the generated totals plus the batch (${r.totalsOk.join('; ')}); ` +
      `recomputed from the minute rows over the hours and local days the retention window holds completely, every rollup differs in ${Object.values(r.differences).reduce((s, n) => s + n, 0)} rows; ` +
      `${r.compositeCheck}.`,
    '',
  );
  lines.push(
    `Latency: ms per call over HTTP \`POST /api\` (session token, one caller, keep-alive), p50 / p99 / max of ${CALLS} calls after up to ${WARMUP} warm-up calls (2 s at most) ` +
      `(fewer, at least ${MIN_CALLS}, where a cell took over ${CELL_SECONDS} s: n in brackets); cells over the target in bold. Measuring took ${(r.measureMs / 1000).toFixed(0)} s.`,
    '',
  );
  const header = ['method', ...SHAPES.map((s) => s.label)];
  lines.push(`| ${header.join(' | ')} |`, `| --- | ${SHAPES.map(() => '--:').join(' | ')} |`);
  for (const method of REPORT_METHODS) {
    const row = SHAPES.map((s) => {
      const c = r.cells.find((x) => x.method === method && x.shape.id === s.id);
      if (!c) return s.key && isApikeyMethod(method) ? '(as above)' : '(not run)';
      if (c.error) return `error ${c.error.split(' ')[0]}`;
      const p99 = c.p99 > TARGET_P99_MS ? `**${ms1(c.p99)}**` : ms1(c.p99);
      return `${ms1(c.p50)} / ${p99} / ${ms1(c.max)}${c.n < CALLS ? ` (n=${c.n})` : ''}`;
    });
    lines.push(`| ${method.replace(/^hub_report/, '')} | ${row.join(' | ')} |`);
  }
  lines.push('');
  if (r.firstOtherZone)
    lines.push(
      `The first call in the other zone (${r.firstOtherZone.method.replace(/^hub_report/, '')}, ${r.firstOtherZone.label}, a warm-up call) took ${ms1(r.firstOtherZone.ms)} ms: it started keeping the account's day rollups for that zone's UTC offsets, backfilled from usage_hour.`,
      '',
    );
  const misses = r.cells.filter((c) => !c.error && c.p99 > TARGET_P99_MS);
  const errors = r.cells.filter((c) => c.error);
  lines.push(
    `Target p99 < ${TARGET_P99_MS} ms: ${r.cells.length - misses.length - errors.length} of ${r.cells.length} cells meet it` +
      (misses.length
        ? `; missed (bold): ${misses.map((c) => `${c.method.replace(/^hub_report/, '')} ${c.shape.label} (${ms1(c.p99)})`).join(', ')}`
        : '') +
      (errors.length
        ? `; errors: ${errors.map((c) => `${c.method} ${c.shape.label}: ${c.error}`).join(', ')}`
        : '') +
      '.',
    '',
  );
  if (r.plans.length > 0) {
    lines.push(
      "Where the time of each cell over the target goes: one more call with its SQL recorded, each of the call's usage queries run again under `EXPLAIN (ANALYZE, BUFFERS)`; " +
        '"database" is the sum of their execution times (the rest of the p50 is the server: session, range check, key name lookup, building and validating the series, JSON, HTTP), "reads" the scans of its slowest query.',
      '',
      '| method, shape | p50 ms | database ms | queries | reads (slowest query) |',
      '| --- | --: | --: | --: | --- |',
    );
    for (const p of r.plans) {
      const scans = p.plan
        .filter((l) => /Scan on|Aggregate|Sort Method: external/.test(l) && !/Worker \d/.test(l))
        .map((l) =>
          l
            .trim()
            .replace(/^->\s*/, '')
            .replace(/\s*\(cost=[^)]*\)/, '')
            .replace(/\(actual time=[^ ]+ (rows=\d+) loops=(\d+)\)/, '($1 × $2)'),
        )
        .join('; ');
      lines.push(
        `| ${p.cell.method.replace(/^hub_report/, '')}, ${p.cell.shape.label} | ${ms1(p.cell.p50)} | ${ms1(p.dbMs)} | ${p.queries} | ${scans.replace(/\|/g, '\\|')} |`,
      );
    }
    const worst = r.plans[0]!;
    lines.push(
      '',
      `The slowest, ${worst.cell.method} (${worst.cell.shape.label}, p99 ${ms1(worst.cell.p99)} ms), in full:`,
      '',
      '```',
      worst.query.replace(/\s+/g, ' ').trim(),
      '',
      ...worst.plan.slice(0, 40),
      ...(worst.plan.length > 40 ? [`… (${worst.plan.length - 40} more lines)`] : []),
      '```',
      '',
    );
  }
  return lines.join('\n');
}

function renderIntro(): string {
  return [
    '## Reports (`npm run bench:reports`)',
    '',
    `Issue 4's proof: a year of usage for one account with ${KEYS} API keys, ${BENCH_CHAINS.length} networks (${BENCH_CHAINS.join(', ')}) and ${BENCH_METHODS.length} methods, ` +
      `then every \`hub_report*\` method (${REPORT_METHODS.length}) over HTTP on a real console server (\`createServer\`, a signed-up user who owns the account). ` +
      `Target: every report under ${TARGET_P99_MS} ms at p99 on PostgreSQL.`,
    '',
    `Data (\`bench/reports-data.ts\`): the account's report zone is ${ACCOUNT_ZONE}. Each minute of the year gets ROWS_PER_MINUTE (key, network, method) picks from ` +
      'hashes of the minute (Zipf-like: a few hot keys, Ethereum and `eth_call` first), merged into usage_minute rows; requests per row are heavy-tailed with a ' +
      'day/night cycle and grow over the year; RUs from the gateway RU table. Set-based SQL, one local day per statement: the day is rolled up into ' +
      "every rollup — usage_hour, usage_hour_key, usage_hour_chain (UTC hours); usage_day, usage_day_key, usage_day_chain, usage_day_key_method, usage_day_key_method_all_chains, usage_day_method, usage_day_method_all_chains (local dates in the account's zone) — with the grouping of " +
      '`services/usage/rollups.ts`, and only the last USAGE_MINUTE_RETENTION_DAYS days of minute rows (and of usage_hour_method, per method and UTC hour) are stored (older ones are rolled up and never written, ' +
      'which is where production ends up once they expire). Two noisy accounts with usage of their own make every report filter by account.',
    '',
    `Shapes (range ending now, \`to\` = now): "1 h, minute" … "365 d, day" are team scope in the account's zone; "1 network" adds \`chain: ${BENCH_CHAINS[0]}\`; ` +
      `"other zone" asks in ${OTHER_ZONE} (day buckets then come from the per-offset day rollups usage_day_offset*, each backfilled from its usage_hour rollup by the first call that needs it, for the zone's two UTC offsets, plus the hours of the two days a year the offset changes; the first call's time is reported under the table); "1 key" is scope apikey with the busiest key. ` +
      'The three hub_reportApikey* methods always name that key, so their "1 key" columns would repeat the plain ones.',
    '',
    `Machine: ${machine()}.`,
  ].join('\n');
}

/** The inner block `<!-- bench:<key>:start -->…end` of the Reports section as it stands in the doc, if any. */
function innerBlock(doc: string, key: string): string | undefined {
  const start = `<!-- bench:${key}:start -->`;
  const end = `<!-- bench:${key}:end -->`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  return i >= 0 && j > i ? doc.slice(i + start.length, j).trim() : undefined;
}

/**
 * One Reports section: the intro (rewritten each run), the hand-written notes on where the time goes (kept as
 * they are), and one block per database — the one just measured replaced, the other kept from its last run.
 */
async function writeDoc(kind: TBenchDbKind, text: string): Promise<void> {
  const doc = existsSync(BENCH_DOC) ? readFileSync(BENCH_DOC, 'utf8') : '';
  const block = (key: string, body: string) =>
    `<!-- bench:${key}:start -->\n\n${body.trim()}\n\n<!-- bench:${key}:end -->`;
  const parts = [renderIntro()];
  const notes = innerBlock(doc, 'reports:notes');
  if (notes) parts.push(block('reports:notes', notes));
  for (const k of ['postgres', 'pglite'] as const) {
    const body = k === kind ? text : innerBlock(doc, `reports:${k}`);
    if (body) parts.push(block(`reports:${k}`, body));
  }
  await writeBenchSection('reports', parts.join('\n\n'));
}

async function main(): Promise<void> {
  for (const kind of DBS) {
    const r = await runOne(kind);
    const text = renderRun(r);
    console.log(`\n${text}\n`);
    if (WRITE_DOC) {
      await writeDoc(kind, text);
      log(`${kind}: written to docs/benchmarks.md`);
    }
  }
}

// Interrupted: drop the database (or temp dir) before leaving.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`${signal}: dropping ${current?.where ?? 'nothing'} and stopping`);
    setTimeout(() => process.exit(1), 20_000).unref();
    void (current?.destroy() ?? Promise.resolve()).finally(() => process.exit(1));
  });
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
