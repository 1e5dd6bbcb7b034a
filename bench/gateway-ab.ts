/**
 * npm run bench:gateway-ab — is this checkout's gateway cheaper per call than another revision's? Paired A/B
 * rounds on one machine, for changes of a few per cent that one bench:gateway run cannot see (its single cells
 * move by ±15 points with the load of a shared machine).
 *
 * The base revision is checked out into a temporary git worktree, with this checkout's node_modules linked in (the
 * root's and each workspace's). The gateway imports no workspace package by name, so each side runs its own
 * sources on this checkout's dependencies. Both gateways run
 * their own bench/gateway-server.ts against one upstream (bench/gateway-upstream.ts), beside nginx as a proxy
 * for the per-core reference. In every round each target gets one short wrk cell per concurrency, in an order
 * that alternates between rounds, so a burst of load elsewhere falls on both sides alike. The answer is the
 * median over the rounds of the paired ratio (this / base of the same round), and in how many rounds this side
 * was the cheaper one: a change that is real wins most rounds; noise wins about half.
 *
 * Options (env):
 *   BENCH_AB           the base revision (default HEAD: the working tree's uncommitted changes against HEAD)
 *   BENCH_ROUNDS       rounds (default 12; keep it even, so each gateway goes first as often as the other)
 *   BENCH_SECONDS      seconds per measured cell (default 2), after a warm-up of BENCH_WARMUP (default 1;
 *                      wrk takes whole seconds)
 *   BENCH_CONCURRENCY  wrk connections, comma-separated (default "16,64")
 *   BENCH_KEYS         spread the calls over that many premium keys on BENCH_ACCOUNTS accounts (as
 *                      bench:gateway-product's in-memory target does) instead of one unlimited key
 *   BENCH_DOC=0        print the section instead of writing it into docs/benchmarks.md
 */
import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, machine, median, writeBenchSection } from './bench-doc';
import {
  checkAnswers,
  cpuMs,
  ensureTools,
  fmtPct as pct,
  fmtUs as us,
  runWrk,
  startBenchNode,
  startNginx,
  stopChild,
  userCpuMs,
  writeWrkScript,
} from './gateway-tools';

const baseRev = process.env.BENCH_AB ?? 'HEAD';
const rounds = Number(process.env.BENCH_ROUNDS ?? 12);
const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const warmup = Number(process.env.BENCH_WARMUP ?? 1);
const concurrencies = (process.env.BENCH_CONCURRENCY ?? '16,64').split(',').map(Number);
const spread = Number(process.env.BENCH_KEYS ?? 0);

const children: ChildProcess[] = [];
const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

type TSide = 'nginx' | 'base' | 'this';
/** calls/s, CPU per call and the part of it in user space (µs), errors */
type TCell = { rps: number; cpuUs: number; userUs: number; errors: number };

/**
 * The base revision's checkout: a worktree with this checkout's node_modules linked in, the root's and every
 * workspace's own (a workspace can hold a version of a dependency that is not hoisted, e.g. apps/gateway's).
 */
function addWorktree(baseRoot: string, sha: string): void {
  git('worktree', 'add', '--detach', '--quiet', baseRoot, sha);
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(baseRoot, 'node_modules'));
  for (const group of ['apps', 'packages'])
    for (const name of readdirSync(path.join(ROOT, group))) {
      const own = path.join(ROOT, group, name, 'node_modules');
      const there = path.join(baseRoot, group, name);
      if (existsSync(own) && existsSync(there)) symlinkSync(own, path.join(there, 'node_modules'));
    }
}

/** Stops every process and removes the worktree and the temporary folder (also on Ctrl-C or SIGTERM). */
async function cleanUp(dir: string, baseRoot: string): Promise<void> {
  for (const p of children) await stopChild(p);
  try {
    git('worktree', 'remove', '--force', baseRoot);
  } catch {
    // not added, or already gone; the directory goes below either way
  }
  rmSync(dir, { recursive: true, force: true });
  try {
    git('worktree', 'prune');
  } catch {
    // nothing to prune
  }
}

async function main(): Promise<void> {
  const tools = ensureTools();
  const baseSha = git('rev-parse', '--verify', `${baseRev}^{commit}`);
  const headSha = git('rev-parse', 'HEAD');
  // What "this" runs: HEAD plus any change to the sources, tracked or new.
  const dirty = git('status', '--porcelain', '--', 'apps', 'packages', 'bench') !== '';
  const thisLabel = `${headSha.slice(0, 7)}${dirty ? ' + uncommitted changes' : ''}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-ab-'));
  const baseRoot = path.join(dir, 'base');
  const onSignal = (signal: NodeJS.Signals) => {
    void cleanUp(dir, baseRoot).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const gwPath = spread > 0 ? '/v1/localnet/bench-key-0' : '/v1/localnet/bench-key';
  const load0 = os.loadavg();
  const started = new Date();
  const cells = new Map<string, TCell>(); // `${c}:${side}:${round}`
  try {
    addWorktree(baseRoot, baseSha);
    const paths =
      spread > 0 ? Array.from({ length: spread }, (_, i) => `/v1/localnet/bench-key-${i}`) : [];
    const script = writeWrkScript(dir, { paths });
    const upstream = await startBenchNode('bench/gateway-upstream.ts', { children });
    const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
    const env = { BENCH_UPSTREAM: upstreamUrl };
    const base = await startBenchNode('bench/gateway-server.ts', { children, env, root: baseRoot });
    const mine = await startBenchNode('bench/gateway-server.ts', { children, env });
    const nginx = await startNginx({
      bin: tools.nginx,
      dir,
      name: 'proxy',
      upstreamPort: upstream.port,
      children,
    });
    const sides: { side: TSide; url: string; pid: number | undefined }[] = [
      { side: 'nginx', url: `http://127.0.0.1:${nginx.port}/`, pid: nginx.child.pid },
      { side: 'base', url: `http://127.0.0.1:${base.port}${gwPath}`, pid: base.child.pid },
      { side: 'this', url: `http://127.0.0.1:${mine.port}${gwPath}`, pid: mine.child.pid },
    ];
    for (const s of sides) await checkAnswers(s.url);
    for (let round = 0; round < rounds; round++)
      for (const c of concurrencies) {
        // nginx first, then base and this in an order that alternates from round to round
        const order = round % 2 ? [sides[0], sides[2], sides[1]] : sides;
        for (const s of order) {
          if (!s) continue;
          const wrk = (sec: number) =>
            runWrk({ bin: tools.wrk, script, url: s.url, connections: c, seconds: sec });
          if (warmup > 0) await wrk(warmup);
          const t0 = cpuMs(s.pid);
          const u0 = userCpuMs(s.pid);
          const r = await wrk(seconds);
          const cell = {
            rps: r.rps,
            cpuUs: ((cpuMs(s.pid) - t0) * 1000) / r.requests,
            userUs: ((userCpuMs(s.pid) - u0) * 1000) / r.requests,
            errors: r.errors,
          };
          if (!Number.isFinite(cell.cpuUs) || !Number.isFinite(cell.userUs))
            throw new Error(`no CPU figure for ${s.side} (has the process ended?)`);
          cells.set(`${c}:${s.side}:${round}`, cell);
          console.log(
            `round ${round + 1} c=${c} ${s.side.padEnd(5)} ${r.rps.toFixed(0).padStart(6)} req/s  CPU/call ${cell.cpuUs.toFixed(1)} µs  errors ${r.errors}`,
          );
        }
      }
    for (const s of sides) await checkAnswers(s.url);
  } finally {
    await cleanUp(dir, baseRoot);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
  const load1 = os.loadavg();
  const get = (c: number, side: TSide) =>
    Array.from({ length: rounds }, (_, r) => cells.get(`${c}:${side}:${r}`) as TCell);
  const rows = concurrencies.map((c) => {
    const [n, b, t] = (['nginx', 'base', 'this'] as const).map((s) => get(c, s)) as [
      TCell[],
      TCell[],
      TCell[],
    ];
    const cpuRatio = t.map((x, i) => x.cpuUs / (b[i] as TCell).cpuUs);
    const wins = cpuRatio.filter((x) => x < 1).length;
    const errors = [...n, ...b, ...t].reduce((sum, x) => sum + x.errors, 0);
    /** median CPU per call, with the median of its user-space part */
    const cpu = (xs: TCell[]) =>
      `${us(median(xs.map((x) => x.cpuUs)))} (${us(median(xs.map((x) => x.userUs)))})`;
    return `| ${[
      c,
      cpu(b),
      cpu(t),
      `**${pct(median(cpuRatio))}**`,
      `${wins} of ${rounds}`,
      pct(median(t.map((x, i) => x.rps / (b[i] as TCell).rps))),
      cpu(n),
      pct(median(b.map((x, i) => (n[i] as TCell).cpuUs / x.cpuUs))),
      pct(median(t.map((x, i) => (n[i] as TCell).cpuUs / x.cpuUs))),
      errors,
    ].join(' | ')} |`;
  });
  const section = [
    '## Gateway A/B (`npm run bench:gateway-ab`)',
    '',
    `Run ${started.toISOString()}: **base ${baseSha.slice(0, 7)}** (\`BENCH_AB=${baseRev}\`) against **this ${thisLabel}**, ${rounds} rounds;`,
    `in each, nginx as a proxy, then both gateways in an order that alternates between rounds, ${seconds} s per cell after a ${warmup} s warm-up,`,
    `wrk one thread, \`eth_blockNumber\` to ${spread > 0 ? `${spread} premium keys on ${process.env.BENCH_ACCOUNTS ?? 100} accounts, in turn` : 'one unlimited key'}.`,
    'Every figure is the median over the rounds; ratios are paired within a round. CPU per call is user + system of',
    'the process from `/proc/<pid>/stat`, divided by the calls of the cell; in brackets, the part in user space (the',
    "rest is the kernel: socket reads and writes, which on loopback carry the receiving side's TCP work, and epoll).",
    '',
    `Machine: ${machine()}. Load average (1, 5, 15 min) at the start: ${load0.map((x) => x.toFixed(2)).join(', ')}; at the end: ${load1.map((x) => x.toFixed(2)).join(', ')}.`,
    '',
    '| c | CPU/call base (µs, user) | CPU/call this (µs, user) | this / base, CPU per call | rounds this was cheaper | this / base, calls/s | nginx proxy CPU/call (µs, user) | per core: base / nginx | per core: this / nginx | errors |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
  await writeBenchSection('gateway-ab', section);
  // writeBenchSection prints the section itself when told not to write it
  if (process.env.BENCH_DOC !== '0' && process.env.BENCH_WRITE_DOC !== '0')
    console.log(`\n${section}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
