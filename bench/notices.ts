/**
 * npm run bench:notices — issue 5's benchmark: SOCKETS open notice sockets on one console server process, then
 * notices raised through raiseNotice; delivery latency p50/p99/max per frame, frames lost, and the server's
 * memory per open socket, written to docs/benchmarks.md.
 *
 * This process is the server (createServer through the API-test harness, PGlite in a temp dir, or PostgreSQL
 * when DATABASE_URL is set — use a throwaway database, the bench leaves its users there), pinned to CPU 0.
 * The clients are a child process (bench/notices-clients.ts) on CPU 1, so their heap and event loop are not
 * the server's. Users sign up through the real API (register, mailed confirm link, login); each user's
 * SOCKETS / USERS sockets share its session token, like several tabs of one browser.
 * Options (env): SOCKETS (5000), USERS (1000), BURST (5000 notices), DATABASE_URL.
 * Run with --expose-gc (the npm script does) so memory is measured after full collections.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, users } from '@rpc/db';
import type { TNoticeRow } from '@rpc/db';
import { sql } from 'drizzle-orm';
import { createLogger } from '../apps/server/src/lib/logger';
import { raiseNotice } from '../apps/server/src/services/notices/raise-notice';
import type { TNoticeBus } from '../apps/server/src/services/notices/notice-bus';
import { createHarness, type THarness } from '../apps/server/test/helpers/harness';
import { BENCH_DOC, ROOT, machine, writeBenchSection } from './bench-doc';
import type { TClientReply, TClientRequest } from './notices-clients';

const SOCKETS = Number(process.env.SOCKETS ?? 5000);
const USERS = Number(process.env.USERS ?? 1000);
const BURST = Number(process.env.BURST ?? 5000);
const DATABASE_URL = process.env.DATABASE_URL || undefined;
const SIGN_UP_CONCURRENCY = 8;
const OPEN_CONCURRENCY = 100;
/** How long a phase waits for its last frames before counting the rest as lost. */
const DELIVERY_TIMEOUT_MS = 15_000;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return os.cpus().length >= 2;
  } catch {
    return false;
  }
})();
function pin(pid: number, cpu: number): void {
  if (hasTaskset)
    execFileSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' });
}

/** The clients' process and a typed request/reply over IPC (one request in flight at a time). */
function startClients(): {
  child: ChildProcess;
  ask: <K extends TClientReply['kind']>(
    req: TClientRequest,
    kind: K,
  ) => Promise<Extract<TClientReply, { kind: K }>>;
} {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bench/notices-clients.ts')],
    {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    },
  );
  pin(child.pid!, 1);
  const ask = <K extends TClientReply['kind']>(req: TClientRequest, kind: K) =>
    new Promise<Extract<TClientReply, { kind: K }>>((resolve, reject) => {
      const onMessage = (msg: TClientReply) => {
        if (msg.kind !== kind) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(msg as Extract<TClientReply, { kind: K }>);
      };
      const onExit = (code: number | null) => reject(new Error(`clients exited with ${code}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(req);
    });
  return { child, ask };
}

type TMemory = { rss: number; heapUsed: number; external: number; arrayBuffers: number };

async function memory(): Promise<TMemory> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    // Twice, with a pause: weak references and finalizers let go of more on the second pass.
    gc();
    await sleep(200);
    gc();
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

type TRaised = { user: number; start: number; pushStart: number; pushEnd: number };

type TPhaseResult = {
  name: string;
  notices: number;
  expected: number;
  received: number;
  lost: number;
  duplicates: number;
  raiseMs: number;
  /** first raise (or push) to last frame */
  spanMs: number;
  /** server process CPU (user + system) from the first raise until every frame arrived */
  cpuMs: number;
  latency: number[];
  db: number[];
  push: number[];
  wire: number[];
};

async function main(): Promise<void> {
  if (SOCKETS % USERS !== 0) throw new Error('SOCKETS must be a multiple of USERS');
  const perUser = SOCKETS / USERS;
  pin(process.pid, 0);
  const load0 = os.loadavg();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-notices-'));
  // The harness's logger is silent; warnings and errors (a failed socket sign-in, say) belong in the output.
  const h: THarness = await createHarness(
    () => openDatabase({ databaseUrl: DATABASE_URL, dataDir }),
    { logger: createLogger({ level: 'warn' }) },
  );
  const clients = startClients();
  try {
    await h.server.start();
    console.log(`server on ${h.server.url} (${h.database.kind}); signing up ${USERS} users…`);

    let t = now();
    const accounts: Array<{ email: string; token: string }> = [];
    let nextUser = 0;
    await Promise.all(
      Array.from({ length: SIGN_UP_CONCURRENCY }, async () => {
        while (nextUser < USERS) {
          nextUser++;
          accounts.push(await h.signUp());
        }
      }),
    );
    const signUpMs = now() - t;
    const idByEmail = new Map(
      (await h.database.db.select({ id: users.id, email: users.email }).from(users)).map((u) => [
        u.email,
        u.id,
      ]),
    );
    const userIds = accounts.map((a) => idByEmail.get(a.email)!);
    console.log(`${USERS} users in ${(signUpMs / 1000).toFixed(1)} s`);

    // Offset of the clients' clock against ours, from the ping with the shortest round trip.
    let offset = 0;
    let bestRtt = Infinity;
    for (let i = 0; i < 50; i++) {
      const t0 = now();
      const { t: tc } = await clients.ask({ kind: 'ping' }, 'pong');
      const t1 = now();
      if (t1 - t0 < bestRtt) {
        bestRtt = t1 - t0;
        offset = tc - (t0 + t1) / 2;
      }
    }

    const before = await memory();
    t = now();
    // Socket i belongs to user floor(i / perUser).
    const tokens = Array.from(
      { length: SOCKETS },
      (_, i) => accounts[Math.floor(i / perUser)]!.token,
    );
    const opened = await clients.ask(
      { kind: 'open', url: h.server.url, tokens, concurrency: OPEN_CONCURRENCY },
      'opened',
    );
    // Sign-in on a socket finishes after the client sees 'open': a query queued behind all of them, then a
    // pause, lets the last registrations land. The first phase would show any socket that missed it as lost.
    await h.database.db.execute(sql`select 1`);
    await sleep(500);
    const openMs = now() - t;
    const serverSockets = h.server.app.websocketServer.clients.size;
    const after = await memory();
    console.log(
      `${opened.opened} sockets open in ${(openMs / 1000).toFixed(1)} s (${opened.failed} failed${opened.firstError ? `: ${opened.firstError}` : ''}); server holds ${serverSockets}`,
    );
    if (opened.opened !== SOCKETS) throw new Error('not every socket opened');

    let seq = 0;
    const raised = new Map<number, TRaised>();
    const pushedAt = new Map<string, { pushStart: number; pushEnd: number }>();
    // The server's own bus (sockets, then mail), timed: pushStart is when the insert came back.
    const timedBus: TNoticeBus = {
      ...h.server.deps.noticeBus,
      push: (rows: TNoticeRow[]) => {
        const pushStart = now();
        h.server.deps.noticeBus.push(rows);
        const pushEnd = now();
        for (const r of rows) pushedAt.set(r.id, { pushStart, pushEnd });
      },
    };
    /** Raises one notice for `user`; with `deferPush`, stores it only and returns the row for a later push. */
    const raise = async (user: number, deferPush = false): Promise<TNoticeRow> => {
      const s = seq++;
      const start = now();
      const [row] = await raiseNotice({
        db: h.server.deps.db,
        ...(deferPush ? {} : { bus: timedBus }),
        at: Date.now(),
        type: 'normal_success',
        title: 'Benchmark',
        content: `Notice ${s} of the notice socket benchmark.`,
        expand: { seq: s },
        userId: userIds[user]!,
      });
      raised.set(s, { user, start, pushStart: NaN, pushEnd: NaN, ...pushedAt.get(row!.id) });
      return row!;
    };

    const collect = async (name: string, fire: () => Promise<void>): Promise<TPhaseResult> => {
      const first = seq;
      const baseline = (await clients.ask({ kind: 'count' }, 'count')).frames;
      const cpu0 = process.cpuUsage();
      const t0 = now();
      await fire();
      const raiseMs = now() - t0;
      const count = seq - first;
      const expected = count * perUser;
      const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
      for (;;) {
        const c = await clients.ask({ kind: 'count' }, 'count');
        if (c.frames - baseline >= expected || Date.now() > deadline) break;
        await sleep(50);
      }
      const cpu = process.cpuUsage(cpu0);
      await sleep(300); // anything late or duplicated
      const { frames } = await clients.ask({ kind: 'take' }, 'frames');
      const seen = new Set<string>();
      let duplicates = 0;
      let last = 0;
      let firstStart = Infinity;
      const latency: number[] = [];
      const db: number[] = [];
      const push: number[] = [];
      const wire: number[] = [];
      for (let i = 0; i < frames.length; i += 3) {
        const socket = frames[i]!;
        const s = frames[i + 1]!;
        const arrival = frames[i + 2]! - offset;
        const r = raised.get(s);
        if (!r || s < first || Math.floor(socket / perUser) !== r.user) {
          duplicates++; // a frame for the wrong socket counts against delivery as well
          continue;
        }
        const key = `${socket}:${s}`;
        if (seen.has(key)) {
          duplicates++;
          continue;
        }
        seen.add(key);
        latency.push(arrival - r.start);
        db.push(r.pushStart - r.start);
        push.push(r.pushEnd - r.pushStart);
        wire.push(arrival - r.pushEnd);
        last = Math.max(last, arrival);
        firstStart = Math.min(firstStart, r.start);
      }
      for (const a of [latency, db, push, wire]) a.sort((x, y) => x - y);
      return {
        name,
        notices: count,
        expected,
        received: seen.size,
        lost: expected - seen.size,
        duplicates,
        raiseMs,
        spanMs: last - firstStart,
        cpuMs: (cpu.user + cpu.system) / 1000,
        latency,
        db,
        push,
        wire,
      };
    };

    const phases: TPhaseResult[] = [];
    // Steady: one notice per user, each raise awaited before the next.
    phases.push(
      await collect('steady', async () => {
        for (let u = 0; u < USERS; u++) await raise(u);
      }),
    );
    // Burst: BURST notices round-robin over the users, all raised at once.
    phases.push(
      await collect('burst', async () => {
        await Promise.all(Array.from({ length: BURST }, (_, i) => raise(i % USERS)));
      }),
    );
    // The sockets' share alone: BURST notices stored first (raiseNotice without a bus, as inside a
    // transaction), then pushed in one bus call; latency counts from that push.
    phases.push(
      await collect('one push', async () => {
        const first = seq;
        const rows = await Promise.all(
          Array.from({ length: BURST }, (_, i) => raise(i % USERS, true)),
        );
        timedBus.push(rows);
        for (let s = first; s < seq; s++) {
          const r = raised.get(s)!;
          const pushed = pushedAt.get(rows[s - first]!.id)!;
          raised.set(s, { ...r, start: pushed.pushStart, ...pushed });
        }
      }),
    );
    const afterBurst = await memory();
    const end = await clients.ask({ kind: 'count' }, 'count');

    for (const p of phases)
      console.log(
        `${p.name}: ${p.notices} notices, ${p.received}/${p.expected} frames, lost ${p.lost}, dup ${p.duplicates}, p50 ${percentile(p.latency, 50).toFixed(2)} ms, p99 ${percentile(p.latency, 99).toFixed(2)} ms, max ${percentile(p.latency, 100).toFixed(2)} ms, span ${p.spanMs.toFixed(0)} ms`,
      );
    console.log({ before, after, afterBurst, bestRtt, offset, end });
    if (end.closes.length > 0) console.log('unexpected closes:', end.closes);

    await writeBenchSection(
      `notices:${DATABASE_URL ? 'postgres' : 'pglite'}`,
      section({
        load0,
        perUser,
        signUpMs,
        openMs,
        serverSockets,
        before,
        after,
        afterBurst,
        bestRtt,
        phases,
        unexpectedCloses: end.unexpectedCloses,
        closes: end.closes,
        badFrames: end.badFrames,
      }),
    );
    console.log(`\nwritten to ${path.relative(ROOT, BENCH_DOC)}`);
  } finally {
    if (clients.child.exitCode === null) {
      await clients.ask({ kind: 'close' }, 'closed').catch(() => {});
    }
    await h.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : 'n/a');
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

function section(r: {
  load0: number[];
  perUser: number;
  signUpMs: number;
  openMs: number;
  serverSockets: number;
  before: TMemory;
  after: TMemory;
  afterBurst: TMemory;
  bestRtt: number;
  phases: TPhaseResult[];
  unexpectedCloses: number;
  closes: string[];
  badFrames: number;
}): string {
  const d = (k: keyof TMemory) => r.after[k] - r.before[k];
  const memRow = (label: string, k: keyof TMemory) =>
    `| ${label} | ${mib(r.before[k])} | ${mib(r.after[k])} | ${mib(r.afterBurst[k])} | ${kib(d(k) / SOCKETS)} |`;
  const dist = (label: string, a: number[]) =>
    `${label} ${ms(percentile(a, 50))} / ${ms(percentile(a, 99))} / ${ms(percentile(a, 100))}`;
  const phase = (name: string) => r.phases.find((p) => p.name === name);
  const burst = phase('burst');
  const onePush = phase('one push');
  const steady = phase('steady');
  const dbName = DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  const lines = [
    `## Notices (\`npm run bench:notices\`, ${dbName})`,
    '',
    `Run ${new Date().toISOString()}. ${SOCKETS.toLocaleString('en-US')} notice sockets on one console server process`,
    `(${USERS.toLocaleString('en-US')} users signed up through the API, ${r.perUser} sockets per user sharing its session`,
    'token like tabs of one browser, each opened as the web app opens it: `/ws?authorization=<token>`). The server',
    `(\`createServer\` through the API-test harness) runs in the bench process on ${DATABASE_URL ? 'PostgreSQL (`DATABASE_URL`, same machine)' : 'embedded PGlite in a temp dir'},`,
    `${hasTaskset ? 'pinned to CPU 0' : 'not pinned'}; the clients (\`ws\`, \`bench/notices-clients.ts\`) are a child process${hasTaskset ? ' on CPU 1' : ''}, so their`,
    'heap and event loop are not the measured ones. Notices go through `raiseNotice` with the server’s own bus',
    '(insert, push to every open socket of the user, then the mail check), type `normal_success` (not mailed by default).',
    'Latency is per frame: from the start of the `raiseNotice` call (for _one push_: from the push) to the frame’s',
    'arrival at the client socket; both processes read `performance.timeOrigin + performance.now()`, the clients’',
    `offset measured by IPC ping (best round trip ${ms(r.bestRtt)} ms, so sub-0.1 ms figures are within that error).`,
    '',
    `Machine: ${machine()}. Load average when the run started: ${r.load0.map((x) => x.toFixed(2)).join(', ')}`,
    `(other work shares the ${os.cpus().length} CPUs). Signing up the users took ${(r.signUpMs / 1000).toFixed(1)} s; opening the`,
    `sockets (${OPEN_CONCURRENCY} handshakes in flight) ${(r.openMs / 1000).toFixed(1)} s; the server held ${r.serverSockets} sockets.`,
    '',
    '| phase | notices | frames expected | frames received | lost | duplicate or misaddressed | first raise → last frame | server CPU | p50 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.phases.map(
      (p) =>
        `| ${p.name} | ${p.notices} | ${p.expected} | ${p.received} | ${p.lost} | ${p.duplicates} | ${(p.spanMs / 1000).toFixed(2)} s | ${(p.cpuMs / 1000).toFixed(2)} s | ${ms(percentile(p.latency, 50))} | ${ms(percentile(p.latency, 99))} | ${ms(percentile(p.latency, 100))} |`,
    ),
    '',
    '_steady_: one notice per user, each `raiseNotice` awaited before the next. _burst_: ' +
      `${BURST.toLocaleString('en-US')} notices round-robin over the users (${BURST / USERS} per user), all \`raiseNotice\` calls started at once.`,
    `_one push_: ${BURST.toLocaleString('en-US')} more stored first (\`raiseNotice\` without a bus, as inside a transaction), then`,
    'pushed in one bus call: the sockets’ share alone. "Server CPU" is the bench process’s user + system time from the',
    'first raise until the last frame arrived (for _one push_ that includes its inserts; with PGlite it includes the database).',
    `Unexpected socket closes during the run: ${r.unexpectedCloses}${r.closes.length > 0 ? ` (${r.closes.join('; ')})` : ''}; unreadable frames: ${r.badFrames}.`,
    '',
    '### Where the time goes',
    '',
    'Per frame, p50 / p99 / max ms: _insert_ is call start → rows back (the database, and waiting for it);',
    '_push_ is the synchronous bus call (frame serialised once per notice, `send` on each of the user’s sockets, and',
    'the start of the mail check); _wire_ is push done → frame read by the client (kernel, the client’s event loop).',
    '',
    ...r.phases.map((p) =>
      p.name === 'one push'
        ? `- ${p.name}: the one bus call took ${ms(percentile(p.push, 100))} ms for ${p.expected.toLocaleString('en-US')} frames (≈ ${((percentile(p.push, 100) * 1000) / p.expected).toFixed(1)} µs per frame; synchronous, so frames leave while it runs and the first arrive before it returns).`
        : `- ${p.name}: ${dist('insert', p.db)}; ${dist('push', p.push)}; ${dist('wire', p.wire)}.`,
    ),
    '',
  ];
  if (burst && onePush && steady) {
    const burstRate = burst.notices / (burst.spanMs / 1000);
    const pushRate = onePush.expected / (onePush.spanMs / 1000);
    const p50 = (a: number[]) => ms(percentile(a, 50));
    lines.push(
      `Sockets: ${onePush.expected.toLocaleString('en-US')} frames pushed in one bus call reach the clients within`,
      `${(onePush.spanMs / 1000).toFixed(2)} s (≈ ${Math.round(pushRate).toLocaleString('en-US')} frames/s; each \`send\` writes to its socket at once, one syscall per frame).`,
      `Database: a burst of separate \`raiseNotice\` calls drains at ≈ ${Math.round(burstRate).toLocaleString('en-US')} notices/s`,
      `(${((burst.cpuMs * 1000) / burst.notices).toFixed(0)} µs of server CPU per notice), because each notice costs an insert and, in the mail wrapper of`,
      'the bus, a select of the recipients’ mail choices (even when none of them chose that type), and',
      `${DATABASE_URL ? 'the postgres-js pool runs at most 10 queries at a time' : 'PGlite runs one query at a time, on the server’s own thread'}, so the calls queue:`,
      `of the burst’s p50 of ${p50(burst.latency)} ms, ${p50(burst.db)} ms is waiting for the insert, the push ${p50(burst.push)} ms and the wire ${p50(burst.wire)} ms.`,
      `A steady stream of single notices arrives in ${p50(steady.latency)} ms at p50 (insert ${p50(steady.db)} ms).`,
      '',
    );
  }
  lines.push(
    `Server memory (MiB; after full GCs via \`--expose-gc\`${(globalThis as { gc?: unknown }).gc ? '' : ' — not available in this run, figures are noisy'}), before the sockets, with all of them open, and after the bursts:`,
    '',
    '| measure | before | sockets open | after bursts | per socket (KiB) |',
    '|---|---:|---:|---:|---:|',
    memRow('RSS', 'rss'),
    memRow('JS heap used', 'heapUsed'),
    memRow('external (incl. array buffers)', 'external'),
    memRow('array buffers', 'arrayBuffers'),
    '',
    'Per socket = (sockets open − before) / sockets. Kernel socket buffers are not in RSS and not counted.',
    '',
  );
  return lines.join('\n');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
