/**
 * npm run bench:gateway-product — issue 17 items 2 and 4: the gateway as the product runs it (`main.ts`, ROLE=gateway,
 * keys loaded from PostgreSQL and opened with API_KEY_SECRET, usage aggregated, journaled and written to the
 * database, balances and limits enforced), with the calls spread over many keys of many accounts on a paid tier,
 * beside the in-memory bench gateway (bench/gateway-server.ts: the same keys on the same accounts and tier, held in
 * memory, no database) and nginx as
 * a keep-alive proxy, in the same rotating rounds. wrk drives every target (one thread, closed loop); the product
 * targets get each call on the next key in turn. Afterwards every product process is stopped (final usage flush)
 * and the usage in the database is checked against the calls wrk saw answered.
 *
 * Targets:
 *   nginx        nginx as a proxy to the bench upstream (keep-alive pool): the reference a proxy can reach here
 *   memory       the in-memory bench gateway (bench:gateway's, with BENCH_KEYS: the same spread of keys)
 *   pg           the product on PostgreSQL without Redis: one gateway process, balances from the database
 *   redis-wN     the product on PostgreSQL + Redis (scale mode), GATEWAY_WORKERS=N for each N in BENCH_WORKERS
 *
 * Options (env):
 *   BENCH_SECONDS      seconds per measured cell (default 5), after a BENCH_WARMUP (default 1) s warm-up
 *   BENCH_ROUNDS       rounds (default 2), the order of targets rotating from round to round
 *   BENCH_CONCURRENCY  wrk connections, comma-separated (default "16,64")
 *   BENCH_WORKERS      GATEWAY_WORKERS values of the scale-mode targets (default "1,<cores>"; "none": no such target)
 *   BENCH_ACCOUNTS     accounts (default 100), BENCH_KEYS_PER_ACCOUNT (default 10): premium tier, 10^12 RU each
 *   TEST_PG_ADMIN_URL  where to create the throwaway database (postgres://postgres@127.0.0.1:5432/postgres)
 *   REDIS_URL          Redis of the scale-mode targets (redis://127.0.0.1:6379)
 *   BENCH_PROFILE_TARGET  one target (memory, pg, redis-w1, …) to run under V8's --cpu-prof, summarised after
 *                      the tables (with GATEWAY_WORKERS > 1 every worker writes a profile; the first is read)
 *   BENCH_PROFILE_DIR  also keep that profile there as <target>.cpuprofile (for DevTools or a bottom-up read)
 *   BENCH_DOC=0        print the section instead of writing it into docs/benchmarks.md
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accounts, apiKeys, openDatabase, ruLedger, usageMinute } from '@rpc/db';
import { and, inArray, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import postgres from 'postgres';
import { createApiKeyCipher } from '../apps/server/src/lib/api-key-cipher';
import { newApiKey } from '../apps/server/src/services/api-keys/generate-api-key';
import { appendRuLedger } from '../apps/server/src/services/ledger/append-ru-ledger';
import { computeRu, defaultRuTable } from '../apps/gateway/src/metering';
import { ROOT, machine, median, writeBenchSection } from './bench-doc';
import { summariseProfile } from './gateway-profile';
import type { TWrkResult } from './gateway-tools';
import {
  CALL_BODY,
  checkAnswers,
  cpuMs,
  ensureTools,
  postgresCpuMs,
  fmtK as k,
  fmtPct as pct,
  fmtUs as us,
  freePort,
  range,
  runWrk,
  startBenchNode,
  startNginx,
  stopChild,
  writeWrkScript,
} from './gateway-tools';
import { startProduct, stopProduct, type TProduct } from './product';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const warmup = Number(process.env.BENCH_WARMUP ?? 1);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const concurrencies = (process.env.BENCH_CONCURRENCY ?? '16,64').split(',').map(Number);
const cores = os.availableParallelism();
const workerCounts =
  process.env.BENCH_WORKERS === 'none'
    ? []
    : [...new Set((process.env.BENCH_WORKERS ?? `1,${cores}`).split(',').map(Number))];
const accountCount = Number(process.env.BENCH_ACCOUNTS ?? 100);
const keysPerAccount = Number(process.env.BENCH_KEYS_PER_ACCOUNT ?? 10);
const profileTarget = process.env.BENCH_PROFILE_TARGET;
const keepProfileDir = process.env.BENCH_PROFILE_DIR;
const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TIER = 'premium';
const METHOD = (JSON.parse(CALL_BODY) as { method: string }).method;
/** What the bench upstream answers (bench/gateway-upstream.ts); the RU price depends on its size. */
const REPLY = '{"jsonrpc":"2.0","id":1,"result":"0x12a05f2"}';
const PRICE = computeRu(
  {
    method: METHOD,
    responseBytes: Buffer.byteLength(REPLY),
    archive: false,
    multiplier: 1,
    outcome: 'ok',
  },
  defaultRuTable,
);

type TTarget = {
  name: string;
  url: string;
  pid: number | undefined;
  script: string;
  product?: TProduct;
};
type TCell = TWrkResult & {
  round: number;
  cpuUs: number;
  upstreamCpuUs: number;
  /** every postgres process's CPU (server, backends, autovacuum) per call of the cell */
  postgresCpuUs: number;
  /** Scale-mode targets: Redis script calls (leases, heartbeats) per 1,000 calls, and Redis's CPU per call. */
  redisPer1000?: number;
  redisCpuUs?: number;
};

/** Script calls Redis has run and the CPU it has used (ms), from INFO: what scale mode costs Redis. */
async function redisCounters(redis: Redis): Promise<{ scripts: number; cpuMs: number }> {
  const stats = await redis.info('commandstats');
  const cpu = await redis.info('cpu');
  let scripts = 0;
  for (const m of stats.matchAll(/^cmdstat_(?:evalsha|eval|fcall):calls=(\d+)/gm))
    scripts += Number(m[1]);
  const field = (name: string) =>
    Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(cpu)?.[1] ?? NaN);
  return { scripts, cpuMs: (field('used_cpu_sys') + field('used_cpu_user')) * 1000 };
}

const children: ChildProcess[] = [];
const products: TProduct[] = [];

/** CPU of a process and every descendant (a primary and its gateway workers), ms. */
function treeCpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  let total = cpuMs(pid);
  let kids: string[] = [];
  try {
    kids = readdirSync(`/proc/${pid}/task`).flatMap((t) =>
      readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean),
    );
  } catch {
    // gone, or no children file on this kernel: the process alone
  }
  for (const k of kids) total += treeCpuMs(Number(k));
  return total;
}

type TSeeded = { accountIds: string[]; keys: string[] };

/**
 * Accounts on the paid tier with plenty of RU (a ledger credit each, as a purchase would make) and their keys,
 * sealed with the product's API_KEY_SECRET exactly as hub_generateApiKey stores them.
 */
async function seed(databaseUrl: string, secret: string): Promise<TSeeded> {
  const cipher = createApiKeyCipher(secret);
  const { db, close } = await openDatabase({ databaseUrl, dataDir: '', maxConnections: 4 });
  const accountIds: string[] = [];
  const keys: string[] = [];
  try {
    for (let a = 0; a < accountCount; a++) {
      const accountId = randomUUID();
      accountIds.push(accountId);
      await db.transaction(async (tx) => {
        await tx
          .insert(accounts)
          .values({ id: accountId, kind: 'personal', name: `bench ${a}`, tier: TIER });
        await appendRuLedger(tx, {
          accountId,
          delta: 1e12,
          kind: 'adjustment',
          ref: 'bench',
          at: Date.now(),
        });
        const rows = Array.from({ length: keysPerAccount }, (_, i) => {
          const id = randomUUID();
          const key = newApiKey();
          keys.push(key);
          return {
            id,
            accountId,
            name: `bench ${a}.${i}`,
            keyHash: cipher.hash(key),
            keyCiphertext: cipher.seal(id, key),
          };
        });
        await tx.insert(apiKeys).values(rows);
      });
    }
  } finally {
    await close();
  }
  return { accountIds, keys };
}

type TUsage = { requests: number; ru: number; errors: number; ledgerUsage: number };

async function usageOf(databaseUrl: string, accountIds: string[]): Promise<TUsage> {
  const { db, close } = await openDatabase({ databaseUrl, dataDir: '', maxConnections: 1 });
  try {
    const [u] = await db
      .select({
        requests: sql<string>`coalesce(sum(${usageMinute.requests}), 0)`,
        ru: sql<string>`coalesce(sum(${usageMinute.ru}), 0)`,
        errors: sql<string>`coalesce(sum(${usageMinute.errors}), 0)`,
      })
      .from(usageMinute)
      .where(inArray(usageMinute.accountId, accountIds));
    const [l] = await db
      .select({ sum: sql<string>`coalesce(sum(${ruLedger.delta}), 0)` })
      .from(ruLedger)
      .where(
        and(inArray(ruLedger.accountId, accountIds), inArray(ruLedger.kind, ['usage', 'payg'])),
      );
    return {
      requests: Number(u?.requests ?? 0),
      ru: Number(u?.ru ?? 0),
      errors: Number(u?.errors ?? 0),
      ledgerUsage: -Number(l?.sum ?? 0),
    };
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  const tools = ensureTools();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-product-'));
  const dbName = `bench_product_${randomBytes(5).toString('hex')}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  const profDir = path.join(dir, 'profile');
  let profileSummary = '';
  /** Samples before the profiled target's first run are start-up: left out (CLOCK_MONOTONIC µs, V8's clock). */
  let profileFromUs: number | undefined;
  const load0 = os.loadavg();
  const started = new Date();
  const cells = new Map<string, TCell>(); // `${c}:${target}:${round}`
  /** Per product target: calls wrk saw answered (warm-ups included) and calls it may have cut at a stop. */
  const answered = new Map<string, { ok: number; cutAtMost: number }>();
  let check = '';
  let seedMs = 0;
  const startMs = new Map<string, number>();
  try {
    await admin.unsafe(`create database ${dbName}`);
    await redis.connect();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${dbName}`;
    const databaseUrl = url.toString();
    const secret = randomBytes(32).toString('base64');
    const variants: [string, boolean, number][] = [
      ['pg', false, 1],
      ...workerCounts.map((n): [string, boolean, number] => [`redis-w${n}`, true, n]),
    ];
    // Each product target has accounts and keys of its own, so its usage is checked on its own.
    const t0 = performance.now();
    const seeded = new Map<string, TSeeded>();
    for (const [name] of variants) seeded.set(name, await seed(databaseUrl, secret));
    seedMs = performance.now() - t0;
    console.log(
      `seeded ${variants.length} × ${accountCount} accounts × ${keysPerAccount} keys (${TIER}) in ${(seedMs / 1000).toFixed(1)} s`,
    );
    // The fresh tables analysed and the seed's writes checkpointed now, as a database in service would have them:
    // otherwise autovacuum, analyse and the checkpoint land in the first measured cells (one pg cell at 35 µs of
    // PostgreSQL CPU per call, against 7-13 in the others).
    const tidy = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await tidy.unsafe('vacuum analyze');
      await tidy.unsafe('checkpoint');
    } finally {
      await tidy.end();
    }

    const upstream = await startBenchNode('bench/gateway-upstream.ts', { children });
    const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
    // The in-memory gateway with the same spread (keys on accounts, premium tier, every call to the next key), so
    // the two differ by PostgreSQL and the product around it only.
    const memoryKeys = accountCount * keysPerAccount;
    const memory = await startBenchNode('bench/gateway-server.ts', {
      children,
      env: {
        BENCH_UPSTREAM: upstreamUrl,
        BENCH_KEYS: String(memoryKeys),
        BENCH_ACCOUNTS: String(accountCount),
      },
      nodeArgs: profileTarget === 'memory' ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
    });
    const nginx = await startNginx({
      bin: tools.nginx,
      dir,
      name: 'proxy',
      upstreamPort: upstream.port,
      children,
    });
    const oneScript = writeWrkScript(dir);

    const productEnv = (
      redis: boolean,
      workers: number,
      dataDir: string,
    ): Record<string, string> => ({
      ROLE: 'gateway',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      API_KEY_SECRET: secret,
      REDIS_URL: redis ? REDIS_URL : '',
      GATEWAY_WORKERS: String(workers),
      LOCALNET: 'false',
      UPSTREAM_LOCALNET_HTTP: upstreamUrl,
      LOG_LEVEL: 'warn',
    });
    const targets: TTarget[] = [
      {
        name: 'nginx',
        url: `http://127.0.0.1:${nginx.port}/`,
        pid: nginx.child.pid,
        script: oneScript,
      },
      {
        name: 'memory',
        url: `http://127.0.0.1:${memory.port}/`,
        pid: memory.child.pid,
        script: writeWrkScript(dir, {
          name: 'keys-memory',
          paths: Array.from({ length: memoryKeys }, (_, i) => `/v1/localnet/bench-key-${i}`),
        }),
      },
    ];
    const dataDirs = new Map<string, string>();
    for (const [name, redis, workers] of variants) {
      const dataDir = mkdtempSync(path.join(dir, `data-${name}-`));
      dataDirs.set(name, dataDir);
      const p = await startProduct(
        {
          ...productEnv(redis, workers, dataDir),
          GATEWAY_PORT: String(await freePort()),
        },
        // A V8 CPU profile of this target, written when it stops (summarised under the tables).
        profileTarget === name ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
      );
      products.push(p);
      startMs.set(name, p.startedMs);
      const origin = new URL(p.gatewayUrl).origin;
      const script = writeWrkScript(dir, {
        name: `keys-${name}`,
        paths: seeded.get(name)!.keys.map((key) => `/v1/localnet/${key}`),
      });
      targets.push({ name, url: `${origin}/`, pid: p.child.pid, script, product: p });
      answered.set(name, { ok: 0, cutAtMost: 0 });
      console.log(`${name}: started in ${(p.startedMs / 1000).toFixed(1)} s`);
    }
    const keyOf = (t: TTarget, i: number) => seeded.get(t.name)?.keys[i] ?? '';
    const answerUrl = (t: TTarget, i: number) =>
      t.product
        ? `${t.url}v1/localnet/${keyOf(t, i)}`
        : t.name === 'memory'
          ? `${t.url}v1/localnet/bench-key-${i}`
          : t.url;
    for (const t of targets) await checkAnswers(answerUrl(t, 0));
    // checkAnswers made one call on each product target: counted as answered.
    for (const a of answered.values()) a.ok += 1;

    const wrk = async (t: TTarget, c: number, s: number) => {
      const r = await runWrk({
        bin: tools.wrk,
        script: t.script,
        url: t.url,
        connections: c,
        seconds: s,
        cpu: undefined,
      });
      const a = answered.get(t.name);
      if (a) {
        a.ok += r.requests - r.errors;
        a.cutAtMost += c;
      }
      return r;
    };
    for (let round = 0; round < rounds; round++) {
      for (const [ci, c] of concurrencies.entries()) {
        const shift = (round + ci) % targets.length;
        for (const t of [...targets.slice(shift), ...targets.slice(0, shift)]) {
          if (t.name === profileTarget) profileFromUs ??= Number(process.hrtime.bigint() / 1000n);
          if (warmup > 0) await wrk(t, c, warmup);
          const isScale = t.name.startsWith('redis-');
          const r0 = isScale ? await redisCounters(redis) : undefined;
          const c0 = treeCpuMs(t.pid);
          const u0 = cpuMs(upstream.child.pid);
          const p0 = postgresCpuMs();
          const r = await wrk(t, c, seconds);
          const cell: TCell = {
            ...r,
            round,
            cpuUs: ((treeCpuMs(t.pid) - c0) * 1000) / r.requests,
            upstreamCpuUs: ((cpuMs(upstream.child.pid) - u0) * 1000) / r.requests,
            postgresCpuUs: ((postgresCpuMs() - p0) * 1000) / r.requests,
          };
          if (r0) {
            const r1 = await redisCounters(redis);
            cell.redisPer1000 = ((r1.scripts - r0.scripts) * 1000) / r.requests;
            cell.redisCpuUs = ((r1.cpuMs - r0.cpuMs) * 1000) / r.requests;
          }
          cells.set(`${c}:${t.name}:${round}`, cell);
          console.log(
            `round ${round + 1} c=${c} ${t.name.padEnd(9)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(3)}  p99 ${r.p99.toFixed(3)} ms  CPU/call ${us(cell.cpuUs)} µs (upstream ${us(cell.upstreamCpuUs)}, postgres ${us(cell.postgresCpuUs)})  errors ${r.errors}${r.errorDetail ? ` (${r.errorDetail})` : ''}${cell.redisPer1000 === undefined ? '' : `  Redis: ${cell.redisPer1000.toFixed(1)} scripts per 1,000 calls, ${us(cell.redisCpuUs ?? NaN)} µs CPU per call`}`,
          );
        }
      }
    }
    for (const t of targets) await checkAnswers(answerUrl(t, 1));
    for (const a of answered.values()) a.ok += 1;

    // Graceful stops: each product process flushes what it aggregated, then the database is the truth.
    for (const p of products) {
      const code = await stopProduct(p, 'SIGTERM');
      if (code !== 0) throw new Error(`a product gateway exited with ${code} on SIGTERM`);
    }
    // The in-memory gateway writes its profile when it exits.
    if (profileTarget === 'memory') await stopChild(memory.child);
    const profile = existsSync(profDir)
      ? readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'))
      : undefined;
    if (profile) {
      profileSummary = summariseProfile(path.join(profDir, profile), ROOT, 25, profileFromUs);
      console.log(profileSummary);
      if (keepProfileDir) {
        mkdirSync(keepProfileDir, { recursive: true });
        copyFileSync(
          path.join(profDir, profile),
          path.join(keepProfileDir, `${profileTarget}.cpuprofile`),
        );
        console.log(`profile kept in ${path.join(keepProfileDir, `${profileTarget}.cpuprofile`)}`);
      }
    }
    const lines: string[] = [];
    let exact = true;
    for (const [name] of variants) {
      const usage = await usageOf(databaseUrl, seeded.get(name)!.accountIds);
      const a = answered.get(name)!;
      const left = readdirSync(dataDirs.get(name)!, { recursive: true })
        .map(String)
        .filter((f) => f.includes('usage-journal') && f.endsWith('.usage'));
      const extra = usage.requests - a.ok;
      const isExact =
        extra >= 0 &&
        extra <= a.cutAtMost &&
        usage.ru === usage.requests * PRICE &&
        usage.ledgerUsage === usage.ru &&
        usage.errors === 0;
      exact &&= isExact;
      lines.push(
        `| ${name} | ${a.ok.toLocaleString('en-US')} | ${usage.requests.toLocaleString('en-US')} | ${extra >= 0 ? '+' : ''}${extra} (≤ ${a.cutAtMost}) | ${usage.ru === usage.requests * PRICE ? 'yes' : 'NO'} | ${usage.ledgerUsage === usage.ru ? 'yes' : 'NO'} | ${left.length} | ${isExact ? 'exact' : '**NOT EXACT**'} |`,
      );
    }
    check = `Usage after the graceful stops, per product target (its own ${accountCount} accounts; warm-ups and the answer checks included). "Answered": 200s wrk counted; "usage": calls in \`usage_minute\`; the difference may be positive by the calls in flight when wrk ended a run (answered by the gateway and billed, not counted by wrk; at most one per connection per run); RU must be calls × ${PRICE}, the ledger's usage debits equal to the RU, and no journal segment left behind:

| target | answered | usage | usage − answered | RU = calls × ${PRICE} | ledger = RU | journal segments left | |
|---|---:|---:|---:|---|---|---:|---|
${lines.join('\n')}`;
    console.log(check);
    for (const t of [memory.child, nginx.child, upstream.child]) await stopChild(t);
    if (!exact) process.exitCode = 1;
  } finally {
    for (const p of products) await stopProduct(p, 'SIGKILL');
    for (const c of children) await stopChild(c);
    await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }

  const names = ['nginx', 'memory', 'pg', ...workerCounts.map((n) => `redis-w${n}`)];
  const get = (c: number, name: string) =>
    Array.from({ length: rounds }, (_, r) => cells.get(`${c}:${name}:${r}`)).filter(
      (x): x is TCell => x !== undefined,
    );
  const ratio = (c: number, name: string, ref: string) =>
    get(c, name).map((x, i) => x.rps / (get(c, ref)[i]?.rps ?? NaN));
  const rows = concurrencies.map((c) => {
    const cellsOf = (n: string) =>
      range(
        get(c, n).map((x) => x.rps),
        k,
      );
    return `| ${c} | ${names.map(cellsOf).join(' | ')} | ${[
      'pg',
      ...workerCounts.map((n) => `redis-w${n}`),
    ]
      .map((n) => {
        const r = ratio(c, n, 'memory');
        return `${range(r, pct)} (median ${pct(median(r))})`;
      })
      .join(' | ')} |`;
  });
  const cpuRows = concurrencies.map(
    (c) =>
      `| ${c} | ${names
        .map((n) =>
          range(
            get(c, n).map((x) => x.cpuUs),
            us,
          ),
        )
        .join(' | ')} |`,
  );
  const productNames = ['pg', ...workerCounts.map((n) => `redis-w${n}`)];
  const pgCpuRows = concurrencies.map(
    (c) =>
      `| ${c} | ${['memory', ...productNames]
        .map((n) =>
          range(
            get(c, n).map((x) => x.postgresCpuUs),
            us,
          ),
        )
        .join(' | ')} |`,
  );
  const scaleNames = workerCounts.map((n) => `redis-w${n}`);
  const redisRows = concurrencies.map(
    (c) =>
      `| ${c} | ${scaleNames
        .map(
          (n) =>
            `${range(
              get(c, n).map((x) => x.redisPer1000 ?? NaN),
              (v) => v.toFixed(1),
            )} / ${range(
              get(c, n).map((x) => x.redisCpuUs ?? NaN),
              (v) => v.toFixed(1),
            )}`,
        )
        .join(' | ')} |`,
  );
  const latencyRows = concurrencies.map(
    (c) =>
      `| ${c} | ${names
        .map(
          (n) =>
            `${range(
              get(c, n).map((x) => x.p50),
              (v) => v.toFixed(2),
            )} / ${range(
              get(c, n).map((x) => x.p99),
              (v) => v.toFixed(2),
            )}`,
        )
        .join(' | ')} |`,
  );
  const load1 = os.loadavg();
  const la = (l: number[]) => l.map((v) => v.toFixed(2)).join(', ');
  // Only with scale-mode targets (BENCH_WORKERS=none has none).
  const redisSection =
    scaleNames.length > 0
      ? `What scale mode costs Redis (item 5): Lua script calls (RU leases, rate-token leases, heartbeats) per 1,000 gateway
calls / Redis's own CPU per gateway call (µs), from \`INFO commandstats\` and \`INFO cpu\` around each cell:

| c | ${scaleNames.join(' | ')} |
|---:|${scaleNames.map(() => '---:').join('|')}|
${redisRows.join('\n')}

`
      : '';
  const section = `## Gateway, the product path (\`npm run bench:gateway-product\`)

Run ${started.toISOString()}: ${rounds} rounds of ${seconds} s per cell after a ${warmup} s warm-up, targets in an order
that rotates from round to round; ranges are min–max over the rounds. wrk 4 (C), one thread, closed loop, \`POST\`
of \`${METHOD}\`. The product targets are \`apps/server/src/main.ts\` with \`ROLE=gateway\` on a fresh PostgreSQL
database holding ${accountCount} accounts on the ${TIER} tier with ${keysPerAccount} keys each
(${(accountCount * keysPerAccount).toLocaleString('en-US')} keys, sealed with \`API_KEY_SECRET\` as the console stores
them); wrk sends each call to the next key in turn, so every key and account is charged, limited and aggregated.
\`memory\` is bench:gateway's in-memory gateway with the same keys on the same accounts and tier, held in memory
(no database, every call to the next key as well); \`pg\` is the product on
PostgreSQL alone (one process, balances from the database); \`redis-wN\` is scale mode (PostgreSQL + Redis:
RU leases and per-key rate buckets in Redis) with \`GATEWAY_WORKERS=N\`. Start-up with the
${(accountCount * keysPerAccount).toLocaleString('en-US')} keys: ${[...startMs].map(([n, v]) => `${n} ${(v / 1000).toFixed(1)} s`).join(', ')}.
Load average ${la(load0)} at the start, ${la(load1)} at the end (${cores} cores shared with other work: compare within a run).

Machine: ${machine()}.

Throughput (req/s) and the product targets against the in-memory gateway in the same round (min–max over the rounds, and the median of the rounds' ratios: one round disturbed by other work on the machine moves the minimum, not the median):

| c | ${names.join(' | ')} | ${['pg', ...workerCounts.map((n) => `redis-w${n}`)].map((n) => `${n} / memory`).join(' | ')} |
|---:|${names.map(() => '---:').join('|')}|${['pg', ...workerCounts].map(() => '---:').join('|')}|
${rows.join('\n')}

CPU per call (µs, user + system of the process and its workers from \`/proc\`, divided by the calls of the cell):

| c | ${names.join(' | ')} |
|---:|${names.map(() => '---:').join('|')}|
${cpuRows.join('\n')}

What the database did meanwhile: CPU per call of every \`postgres\` process on the machine (the server, the
gateway's backends, autovacuum; \`memory\` uses no database, so its column is the server's idle work), µs:

| c | ${['memory', ...productNames].join(' | ')} |
|---:|${['memory', ...productNames].map(() => '---:').join('|')}|
${pgCpuRows.join('\n')}

${redisSection}Latency p50 / p99 (ms):

| c | ${names.join(' | ')} |
|---:|${names.map(() => '---:').join('|')}|
${latencyRows.join('\n')}

${check}
${profileSummary ? `\nWhere the \`${profileTarget}\` target's time went while wrk ran on it (V8 \`--cpu-prof\`, \`BENCH_PROFILE_TARGET=${profileTarget}\`):\n\n${profileSummary}\n` : ''}`;
  if (process.env.BENCH_DOC === '0') return console.log(`\n${section}`);
  await writeBenchSection('gateway-product', section);
  console.log('\nwritten to docs/benchmarks.md');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
