/**
 * npm run bench:durability — does usage survive kill -9 of the gateway during load? For PGlite, and for
 * PostgreSQL + Redis when 127.0.0.1:5432 answers: the product (`apps/server/src/main.ts`, ROLE=gateway, a fixed
 * GATEWAY_PORT so every restart finds the same journal directory) serves paced `eth_chainId` calls from an
 * in-process upstream that counts them; the gateway is killed with SIGKILL at a random moment, restarted (it
 * replays its journal before serving), stopped with SIGTERM, and the usage tables are compared with what the
 * client saw:
 *   answered  = calls the client got a 200 with a result for: each must be in usage_minute (else "lost");
 *   served    = calls the upstream answered: usage_minute may never hold more (else "double-counted");
 *   the difference is at most the calls in flight at the kill (answered by the upstream, cut before the client).
 * RU are checked the same way (answered × price ≤ RU ≤ served × price), and the ledger's usage debits against
 * usage_minute. "In the journal at the kill" is what the gateway had not flushed: what a crash lost before.
 * Options (env): DURABILITY_ROUNDS (5 per database), DURABILITY_RATE (calls/s, 1500), DURABILITY_CONCURRENCY (8),
 * DURABILITY_DATABASES ("pglite,postgres"), TEST_PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PASSWORD_HASH_PREFIX } from '@rpc/contract';
import {
  accounts,
  apiKeys,
  openDatabase,
  ruLedger,
  usageBatches,
  usageMinute,
  type TOpenedDatabase,
} from '@rpc/db';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { mailIsTo, mailLink } from '../e2e/fixtures/mail-link';
import { Pool } from 'undici';
import { computeRu, defaultRuTable } from '../apps/gateway/src/metering';
import { inspectJournalDir } from '../apps/gateway/src/usage-journal';
import { REQUEST_LOG_BATCH_MARK } from '../apps/server/src/services/request-logs/write-request-log-batch';
import { REFUSAL_BATCH_MARK } from '../apps/server/src/services/usage/write-refusal-batch';
import { machine, writeBenchSection } from './bench-doc';
import { freePort } from './gateway-tools';
import { startProduct, stopProduct } from './product';

const ROUNDS = Number(process.env.DURABILITY_ROUNDS ?? 5);
const RATE = Number(process.env.DURABILITY_RATE ?? 1500);
const CONCURRENCY = Number(process.env.DURABILITY_CONCURRENCY ?? 8);
const DATABASES = (process.env.DURABILITY_DATABASES ?? 'pglite,postgres').split(',');
const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const METHOD = 'eth_chainId';
const BODY = `{"jsonrpc":"2.0","id":1,"method":"${METHOD}","params":[]}`;
const UPSTREAM_ANSWER = '{"jsonrpc":"2.0","id":1,"result":"0x7a69"}';
const PRICE = computeRu(
  {
    method: METHOD,
    responseBytes: Buffer.byteLength(UPSTREAM_ANSWER),
    archive: false,
    multiplier: 1,
    outcome: 'ok',
  },
  defaultRuTable,
);
/** Kill moments, uniformly in this window after the load starts (the flush interval is 5 s). */
const KILL_AFTER_MS: [number, number] = [1000, 11_000];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The upstream: answers every call at once and counts the load's method (health checks use eth_blockNumber). */
async function startUpstream(): Promise<{ url: string; served: () => number; close: () => void }> {
  let served = 0;
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call = JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown; method: string };
      const body =
        call.method === METHOD
          ? UPSTREAM_ANSWER.replace('"id":1', `"id":${JSON.stringify(call.id ?? null)}`)
          : `{"jsonrpc":"2.0","id":${JSON.stringify(call.id ?? null)},"result":"0x10"}`;
      res.writeHead(200, { 'content-type': 'application/json' }).end(body, () => {
        if (call.method === METHOD) served += 1;
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, served: () => served, close: () => server.close() };
}

async function api(
  consoleUrl: string,
  method: string,
  params: unknown,
  token?: string,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${consoleUrl}/api`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ method, params, id: 1 }),
  });
  const body = (await res.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (!body.result) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** The confirm code mailed to `email` (the embedded default writes mails to DATA_DIR/outbox). */
async function confirmCode(dataDir: string, email: string): Promise<string> {
  const dir = path.join(dataDir, 'outbox');
  for (let i = 0; i < 100; i++) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.eml'));
    } catch {
      // not written yet
    }
    for (const name of names) {
      const raw = readFileSync(path.join(dir, name), 'utf8');
      if (!mailIsTo(raw, email)) continue;
      const link = mailLink(raw, 'code=');
      const code = link ? new URL(link).searchParams.get('code') : null;
      if (code) return code;
    }
    await sleep(100);
  }
  throw new Error(`no confirm mail to ${email}`);
}

/** A user, an account with plenty of RU on the premium tier, and one key — made through the console's API. */
async function seed(
  env: Record<string, string>,
  dataDir: string,
  openDb: () => Promise<TOpenedDatabase>,
): Promise<{ key: string; keyId: string; accountId: string }> {
  const product = await startProduct({
    ...env,
    ROLE: 'all',
    PORT: String(await freePort()),
    GATEWAY_PORT: String(await freePort()),
    REGISTER_GIFT_RU: String(1e13),
  });
  let made: Record<string, unknown>;
  try {
    const consoleUrl = product.consoleUrl!;
    const email = `durability-${randomBytes(4).toString('hex')}@example.com`;
    const password = createHash('md5')
      .update(PASSWORD_HASH_PREFIX + 'durability bench')
      .digest('hex');
    await api(consoleUrl, 'hub_register', { email, password, confirmPassword: password });
    await api(consoleUrl, 'hub_emailConfirm', { code: await confirmCode(dataDir, email) });
    const { token } = (await api(consoleUrl, 'hub_login', { email, password })) as {
      token: string;
    };
    made = await api(consoleUrl, 'hub_generateApiKey', { name: 'durability' }, token);
  } finally {
    await sleep(300); // see the restart below: the SIGTERM handler comes just after the URLs
    await stopProduct(product, 'SIGTERM');
  }
  const keyId = made.keyId as string;
  const database = await openDb();
  try {
    const [row] = await database.db
      .select({ accountId: apiKeys.accountId })
      .from(apiKeys)
      .where(eq(apiKeys.id, keyId));
    // Premium (2,500 calls/s): the paced load stays under the key's limits, so every call is served.
    await database.db
      .update(accounts)
      .set({ tier: 'premium' })
      .where(eq(accounts.id, row!.accountId));
    return { key: made.key as string, keyId, accountId: row!.accountId };
  } finally {
    await database.close();
  }
}

type TLoad = { answered: number; refused: number; unanswered: number; other: number };

/** Paced load (RATE calls/s over CONCURRENCY connections) until `until` resolves; then stops at once. */
async function loadUntil(url: string, until: Promise<void>): Promise<TLoad> {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: CONCURRENCY, pipelining: 1 });
  const counts: TLoad = { answered: 0, refused: 0, unanswered: 0, other: 0 };
  let isStopped = false;
  void until.then(() => {
    isStopped = true;
  });
  let t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (!isStopped) {
      const at = t0 + (next++ * 1000) / RATE;
      const wait = at - performance.now();
      if (wait > 0) await sleep(wait);
      // Behind schedule (a stall on a busy machine): move the schedule rather than burst past the key's limits.
      else if (wait < -100) t0 -= wait;
      if (isStopped) break;
      try {
        const res = await pool.request({
          path: u.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: BODY,
        });
        const text = await res.body.text();
        if (res.statusCode === 200 && text.includes('"result"')) counts.answered += 1;
        else if (res.statusCode === 429) counts.refused += 1;
        else counts.other += 1;
      } catch {
        counts.unanswered += 1; // cut by the kill
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await pool.destroy();
  return counts;
}

type TTotals = {
  requests: number;
  ru: number;
  errors: number;
  ledgerUsage: number;
  batches: number;
};

async function totals(
  db: TOpenedDatabase['db'],
  keyId: string,
  accountId: string,
): Promise<TTotals> {
  const [u] = await db
    .select({
      requests: sql<string>`coalesce(sum(${usageMinute.requests}), 0)`,
      ru: sql<string>`coalesce(sum(${usageMinute.ru}), 0)`,
      errors: sql<string>`coalesce(sum(${usageMinute.errors}), 0)`,
    })
    .from(usageMinute)
    .where(eq(usageMinute.keyId, keyId));
  const [l] = await db
    .select({ sum: sql<string>`coalesce(sum(${ruLedger.delta}), 0)` })
    .from(ruLedger)
    .where(and(eq(ruLedger.accountId, accountId), eq(ruLedger.kind, 'usage')));
  const [b] = await db
    .select({ n: sql<string>`count(*)` })
    .from(usageBatches)
    .where(notInArray(usageBatches.ruTableVersion, [REFUSAL_BATCH_MARK, REQUEST_LOG_BATCH_MARK]));
  return {
    requests: Number(u?.requests),
    ru: Number(u?.ru),
    errors: Number(u?.errors),
    ledgerUsage: -Number(l?.sum),
    batches: Number(b?.n),
  };
}

type TRound = {
  killAfterMs: number;
  load: TLoad;
  served: number;
  inJournal: number;
  journalSegments: number;
  replayedBeforeServing: boolean;
  restartMs: number;
  db: TTotals;
  lost: number;
  doubled: number;
  ruLost: number;
  ruDoubled: number;
};

async function runDatabase(
  kind: 'pglite' | 'postgres',
): Promise<{ label: string; rounds: TRound[] }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `bench-durability-${kind}-`));
  const upstream = await startUpstream();
  let pgName: string | undefined;
  let admin: postgres.Sql | undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOCALNET: 'false',
    UPSTREAM_LOCALNET_HTTP: upstream.url,
    API_KEY_SECRET: randomBytes(32).toString('base64'),
    // Empty means unset (env.ts): the PGlite run must not pick a database or Redis up from the shell.
    DATABASE_URL: '',
    REDIS_URL: '',
    // One gateway process: the bench kills that process and reads its journal directory.
    GATEWAY_WORKERS: '1',
  };
  let label = 'PGlite (embedded, in-memory key invalidation)';
  if (kind === 'postgres') {
    pgName = `durability_${randomBytes(5).toString('hex')}`;
    admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${pgName}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${pgName}`;
    env.DATABASE_URL = url.toString();
    env.REDIS_URL = REDIS_URL;
    label = 'PostgreSQL + Redis (scale mode, ROLE=gateway)';
  }
  const openDb = () =>
    openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir, maxConnections: 2 });
  const rounds: TRound[] = [];
  try {
    const { key, keyId, accountId } = await seed(env, dataDir, openDb);
    const gatewayPort = String(await freePort());
    const journalDir = path.join(dataDir, 'usage-journal', `gateway-${gatewayPort}`);
    const gatewayEnv = { ...env, ROLE: 'gateway', GATEWAY_PORT: gatewayPort };
    let before: TTotals = { requests: 0, ru: 0, errors: 0, ledgerUsage: 0, batches: 0 };
    for (let r = 0; r < ROUNDS; r++) {
      const servedBefore = upstream.served();
      const gateway = await startProduct(gatewayEnv);
      const killAfterMs = Math.round(
        KILL_AFTER_MS[0] + Math.random() * (KILL_AFTER_MS[1] - KILL_AFTER_MS[0]),
      );
      let killed: Promise<number | string> = Promise.resolve(0);
      const load = await loadUntil(
        `${gateway.gatewayUrl}/v1/localnet/${key}`,
        sleep(killAfterMs).then(() => {
          killed = stopProduct(gateway, 'SIGKILL');
        }),
      );
      await killed;
      await sleep(200); // answers the upstream wrote to the dead gateway are counted by now
      const served = upstream.served() - servedBefore;
      const left = inspectJournalDir(journalDir);

      // Restart: the journal is replayed before the gateway serves; then a graceful stop.
      const restarted = await startProduct(gatewayEnv);
      const replayedBeforeServing = inspectJournalDir(journalDir).segments === 0;
      // main.ts prints its URLs a moment before it installs its SIGTERM handler: give it that moment.
      await sleep(300);
      const code = await stopProduct(restarted, 'SIGTERM');
      if (code !== 0) throw new Error(`graceful stop exited with ${code}`);

      const database = await openDb();
      let now: TTotals;
      try {
        now = await totals(database.db, keyId, accountId);
      } finally {
        await database.close();
      }
      const db: TTotals = {
        requests: now.requests - before.requests,
        ru: now.ru - before.ru,
        errors: now.errors - before.errors,
        ledgerUsage: now.ledgerUsage - before.ledgerUsage,
        batches: now.batches - before.batches,
      };
      before = now;
      const round: TRound = {
        killAfterMs,
        load,
        served,
        inJournal: left.calls,
        journalSegments: left.segments,
        replayedBeforeServing,
        restartMs: restarted.startedMs,
        db,
        lost: Math.max(0, load.answered - db.requests),
        doubled: Math.max(0, db.requests - served),
        ruLost: Math.max(0, load.answered * PRICE - db.ru),
        ruDoubled: Math.max(0, db.ru - served * PRICE),
      };
      rounds.push(round);
      console.log(
        `${kind} round ${r + 1}: killed after ${killAfterMs} ms; answered ${load.answered}, served ${served}, in journal ${left.calls}; db ${db.requests} req / ${db.ru} RU (ledger ${db.ledgerUsage}); lost ${round.lost}, double ${round.doubled}`,
      );
    }
  } finally {
    upstream.close();
    if (admin && pgName) {
      await admin.unsafe(`drop database if exists ${pgName} with (force)`).catch(() => {});
      await admin.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { label, rounds };
}

async function postgresReachable(): Promise<boolean> {
  const s = postgres(ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await s`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await s.end({ timeout: 1 }).catch(() => {});
  }
}

async function main(): Promise<void> {
  const load0 = os.loadavg();
  const results: { label: string; rounds: TRound[] }[] = [];
  for (const kind of DATABASES) {
    if (kind === 'postgres' && !(await postgresReachable())) {
      console.warn(`PostgreSQL at ${ADMIN_URL} unreachable: skipped`);
      continue;
    }
    if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`unknown database ${kind}`);
    results.push(await runDatabase(kind));
  }

  const sum = (rs: TRound[], f: (r: TRound) => number) => rs.reduce((s, r) => s + f(r), 0);
  const lines = [
    '## Usage durability across kill -9 (`npm run bench:durability`)',
    '',
    `Run ${new Date().toISOString()}. Machine: ${machine()}. Load average at the start: ${load0.map((x) => x.toFixed(2)).join(', ')}.`,
    '',
    `Each round: the product's gateway (\`apps/server/src/main.ts\`, ROLE=gateway, usage journal in`,
    '`DATA_DIR/usage-journal/gateway-<port>`, flush every 5 s) serves paced `eth_chainId` calls',
    `(${RATE}/s over ${CONCURRENCY} connections, ${PRICE} RU each) and is killed with SIGKILL at a random moment`,
    `${KILL_AFTER_MS[0] / 1000}–${KILL_AFTER_MS[1] / 1000} s into the load; it is restarted (the journal is replayed before it`,
    'serves), stopped with SIGTERM, and usage_minute is read. _Answered_: 200s with a result at the client — each',
    'must be in usage_minute, or it is **lost**. _Served_: calls the upstream answered — usage_minute may not hold',
    'more, or they are **double-counted**; between the two are the calls in flight at the kill (served, cut before',
    'the client), which may be counted or not. _In journal_: calls not yet flushed at the kill — what a crash lost',
    'before the journal.',
    '',
  ];
  for (const { label, rounds } of results) {
    lines.push(
      `### ${label}`,
      '',
      '| round | killed after | answered | served | in flight at kill | in journal at kill (segments) | replayed before serving | usage_minute requests | RU (ledger debit) | lost | double-counted |',
      '|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|',
      ...rounds.map(
        (r, i) =>
          `| ${i + 1} | ${(r.killAfterMs / 1000).toFixed(1)} s | ${r.load.answered} | ${r.served} | ${r.load.unanswered} | ${r.inJournal} (${r.journalSegments}) | ${r.replayedBeforeServing ? 'yes' : 'no'} | ${r.db.requests} | ${r.db.ru} (${r.db.ledgerUsage}) | ${r.lost} | ${r.doubled} |`,
      ),
      `| all | | ${sum(rounds, (r) => r.load.answered)} | ${sum(rounds, (r) => r.served)} | ${sum(rounds, (r) => r.load.unanswered)} | ${sum(rounds, (r) => r.inJournal)} | | ${sum(rounds, (r) => r.db.requests)} | ${sum(rounds, (r) => r.db.ru)} (${sum(rounds, (r) => r.db.ledgerUsage)}) | **${sum(rounds, (r) => r.lost)}** | **${sum(rounds, (r) => r.doubled)}** |`,
      '',
      `RU: lost ${sum(rounds, (r) => r.ruLost)}, double-counted ${sum(rounds, (r) => r.ruDoubled)}; refused (429) ${sum(rounds, (r) => r.load.refused)}, other statuses ${sum(rounds, (r) => r.load.other)}, error rows ${sum(rounds, (r) => r.db.errors)}. Restart to serving (tsx start-up and replay included): ${rounds.map((r) => `${(r.restartMs / 1000).toFixed(1)} s`).join(', ')}.`,
      '',
    );
  }
  await writeBenchSection('durability', lines.join('\n'));
  console.log('\nwritten to docs/benchmarks.md');
  const bad = results.some(({ rounds }) =>
    rounds.some((r) => r.lost > 0 || r.doubled > 0 || r.db.ledgerUsage !== r.db.ru),
  );
  if (bad) {
    console.error('usage was lost or double-counted (see above)');
    process.exit(1);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
