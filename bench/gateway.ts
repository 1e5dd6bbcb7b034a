/**
 * npm run bench:gateway — throughput, p50/p99 latency and CPU per call of eth_blockNumber through the gateway,
 * beside references measured in the same rounds: the upstream called directly, nginx as a proxy (keep-alive
 * upstream pool), the barest Node proxy, and nginx answering the call itself (`return 200`: the most this
 * machine and the load generator can do). Load comes from wrk (C, one thread, closed loop), so the generator
 * is not what caps the fast targets; wrk and nginx are installed from Debian when missing. Writes the figures
 * and the machine into docs/benchmarks.md.
 *
 * Options (env):
 *   BENCH_SECONDS      seconds per measured cell (default 5), after an unmeasured warm-up of BENCH_WARMUP (default 1)
 *   BENCH_ROUNDS       rounds (default 2); each round measures every target once per concurrency, in an order
 *                      that rotates from round to round, so a burst of load elsewhere hits all targets alike
 *   BENCH_CONCURRENCY  wrk connections, comma-separated (default "1,16,64")
 *   BENCH_PLACEMENT    none (default): no pinning; split: the proxies (gateway, bare proxy, nginx proxy) on CPU 0,
 *                      wrk, the upstream and nginx `return 200` on CPU 1 (taskset); shared: everything on CPU 1.
 *                      Pinning gave no proxy a core of its own on this shared machine (other work is not pinned),
 *                      and under load a pinned proxy waited behind CPU 0's run queue on each of its four cross-CPU
 *                      wake-ups per call: nginx fell to 0.1k–1.2k calls/s at c=1, against 7.8k–14.9k unpinned.
 *   BENCH_PIPELINE     UPSTREAM_PIPELINE of the "gateway" target (default: the product's, 8); the "unpiped" target
 *                      is the same gateway with UPSTREAM_PIPELINE=1
 *   BENCH_GATEWAY_NODE_ARGS  Node flags for the gateway process only, e.g. "--max-semi-space-size=32"
 *   BENCH_DOC=0        print the section instead of writing it into docs/benchmarks.md (for trying changes)
 *   BENCH_PROFILE=1    also record a --cpu-prof of a separate gateway process under wrk for 10 s at the middle
 *                      concurrency (BENCH_PROFILE_CONCURRENCY to choose another), and summarise where its time goes
 */
import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_UPSTREAM_PIPELINE } from '../apps/gateway/src/server';
import { BENCH_DOC, ROOT, machine, writeBenchSection } from './bench-doc';
import { measureGatewayLogic, measureRawFrontLogic } from './gateway-logic';
import { summariseProfile } from './gateway-profile';
import type { TWrkResult } from './gateway-tools';
import {
  checkAnswers,
  cpuMs,
  ensureTools,
  fmtK as k,
  fmtPct as pct,
  fmtUs as us,
  range,
  runWrk,
  startBenchNode,
  startNginx,
  stopChild,
  writeWrkScript,
} from './gateway-tools';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const warmup = Number(process.env.BENCH_WARMUP ?? 1);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const concurrencies = (process.env.BENCH_CONCURRENCY ?? '1,16,64').split(',').map(Number);
const profile = process.env.BENCH_PROFILE === '1';
/** Node flags for the gateway process only (trying V8 or libuv settings against the same references). */
const gatewayNodeArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** UPSTREAM_PIPELINE of the "gateway" target (default: the product's default). */
const pipelineDepth = process.env.BENCH_PIPELINE ?? String(DEFAULT_UPSTREAM_PIPELINE);
const placement = (process.env.BENCH_PLACEMENT ?? 'none') as 'split' | 'shared' | 'none';
const hasTaskset =
  placement !== 'none' &&
  os.cpus().length >= 2 &&
  (() => {
    try {
      execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
/** The CPU of the proxies under test, and the CPU of the load generator and the upstream. */
const proxyCpu = hasTaskset ? (placement === 'split' ? 0 : 1) : undefined;
const driverCpu = hasTaskset ? 1 : undefined;

/** Every process this script started, stopped on the way out whatever happens. */
const children: ChildProcess[] = [];

const TARGETS = ['limit', 'direct', 'nginx', 'raw', 'bare', 'gateway', 'unpiped'] as const;
type TTargetName = (typeof TARGETS)[number];
type TTarget = { name: TTargetName; url: string; pid: number | undefined };
type TCell = TWrkResult & { round: number; targetCpuUs: number; upstreamCpuUs: number };

const ms = (v: number) => v.toFixed(3);

async function main(): Promise<void> {
  const tools = ensureTools();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-'));
  const script = writeWrkScript(dir);
  if (driverCpu !== undefined)
    execFileSync('taskset', ['-a', '-cp', String(driverCpu), String(process.pid)], {
      stdio: 'ignore',
    });
  const load0 = os.loadavg();
  const started = new Date();
  const cells = new Map<string, TCell>(); // `${c}:${target}:${round}`
  const wrk = (url: string, c: number, s: number) =>
    runWrk({ bin: tools.wrk, script, url, connections: c, seconds: s, cpu: driverCpu });
  let profileSummary = '';
  const profiledC = Number(
    process.env.BENCH_PROFILE_CONCURRENCY ??
      concurrencies[Math.floor(concurrencies.length / 2)] ??
      16,
  );
  let logicUs = NaN;
  let httpLogicUs = NaN;
  try {
    const upstream = await startBenchNode('bench/gateway-upstream.ts', {
      children,
      cpu: driverCpu,
    });
    const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
    const gateway = await startBenchNode('bench/gateway-server.ts', {
      children,
      cpu: proxyCpu,
      env: { BENCH_UPSTREAM: upstreamUrl, UPSTREAM_PIPELINE: pipelineDepth },
      nodeArgs: gatewayNodeArgs,
    });
    const bare = await startBenchNode('bench/gateway-bare-proxy.ts', {
      children,
      cpu: proxyCpu,
      env: { BENCH_UPSTREAM: upstreamUrl },
    });
    // The same gateway without HTTP/1.1 pipelining to the upstream: one call per connection at a time.
    const unpiped = await startBenchNode('bench/gateway-server.ts', {
      children,
      cpu: proxyCpu,
      env: { BENCH_UPSTREAM: upstreamUrl, UPSTREAM_PIPELINE: '1' },
      nodeArgs: gatewayNodeArgs,
    });
    const raw = await startBenchNode('bench/gateway-raw-proxy.ts', {
      children,
      cpu: proxyCpu,
      env: { BENCH_UPSTREAM: upstreamUrl, UPSTREAM_PIPELINE: pipelineDepth },
    });
    // nginx as a proxy sits where the other proxies sit; nginx answering by itself sits where the upstream
    // does, so "limit" and "direct" are placed alike and "limit" shows how far wrk could push "direct".
    const nginx = await startNginx({
      bin: tools.nginx,
      dir,
      name: 'proxy',
      upstreamPort: upstream.port,
      cpu: proxyCpu,
      children,
    });
    const limit = await startNginx({
      bin: tools.nginx,
      dir,
      name: 'static',
      cpu: driverCpu,
      children,
    });
    const targets: TTarget[] = [
      { name: 'limit', url: `http://127.0.0.1:${limit.port}/`, pid: limit.child.pid },
      { name: 'direct', url: `${upstreamUrl}/`, pid: upstream.child.pid },
      { name: 'nginx', url: `http://127.0.0.1:${nginx.port}/`, pid: nginx.child.pid },
      { name: 'raw', url: `http://127.0.0.1:${raw.port}/`, pid: raw.child.pid },
      { name: 'bare', url: `http://127.0.0.1:${bare.port}/`, pid: bare.child.pid },
      {
        name: 'gateway',
        url: `http://127.0.0.1:${gateway.port}/v1/localnet/bench-key`,
        pid: gateway.child.pid,
      },
      {
        name: 'unpiped',
        url: `http://127.0.0.1:${unpiped.port}/v1/localnet/bench-key`,
        pid: unpiped.child.pid,
      },
    ];
    for (const t of targets) await checkAnswers(t.url);
    for (let round = 0; round < rounds; round++) {
      for (const [ci, c] of concurrencies.entries()) {
        const shift = (round + ci) % targets.length;
        for (const t of [...targets.slice(shift), ...targets.slice(0, shift)]) {
          if (warmup > 0) await wrk(t.url, c, warmup);
          const t0 = cpuMs(t.pid);
          const u0 = cpuMs(upstream.child.pid);
          const r = await wrk(t.url, c, seconds);
          const cell: TCell = {
            ...r,
            round,
            targetCpuUs: ((cpuMs(t.pid) - t0) * 1000) / r.requests,
            upstreamCpuUs: ((cpuMs(upstream.child.pid) - u0) * 1000) / r.requests,
          };
          cells.set(`${c}:${t.name}:${round}`, cell);
          console.log(
            `round ${round + 1} c=${c} ${t.name.padEnd(7)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${ms(r.p50)}  p99 ${ms(r.p99)} ms  CPU/call: target ${us(cell.targetCpuUs)} µs, upstream ${us(cell.upstreamCpuUs)} µs, wrk ${us(r.wrkCpuUs)} µs  ${r.bytesPerCall.toFixed(1)} B/answer  errors ${r.errors}`,
          );
        }
      }
    }
    for (const t of targets) await checkAnswers(t.url); // still answering results, not errors
    await stopChild(gateway.child);
    await stopChild(unpiped.child);
    await stopChild(bare.child);
    await stopChild(raw.child);
    if (profile) profileSummary = await profileGateway(upstreamUrl, profiledC, wrk);
    for (const p of [nginx.child, limit.child, upstream.child]) await stopChild(p);
    logicUs = await measureRawFrontLogic();
    httpLogicUs = await measureGatewayLogic();
  } finally {
    for (const p of children) await stopChild(p);
    rmSync(dir, { recursive: true, force: true });
  }
  const section = report(cells, {
    load0,
    started,
    profileSummary,
    profiledC,
    logicUs,
    httpLogicUs,
  });
  if (process.env.BENCH_DOC === '0') return console.log(`\n${section}`);
  await writeBenchSection(`gateway:${placement}`, section);
  console.log(`\nwritten to ${path.relative(ROOT, BENCH_DOC)}`);
}

/** A separate gateway process under the V8 profiler, so the profiler's cost stays out of the figures. */
async function profileGateway(
  upstreamUrl: string,
  c: number,
  wrk: (url: string, c: number, s: number) => Promise<TWrkResult>,
): Promise<string> {
  const profDir = mkdtempSync(path.join(os.tmpdir(), 'gw-prof-'));
  const profiled = await startBenchNode('bench/gateway-server.ts', {
    children,
    cpu: proxyCpu,
    env: { BENCH_UPSTREAM: upstreamUrl },
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
  });
  const url = `http://127.0.0.1:${profiled.port}/v1/localnet/bench-key`;
  let fromUs = 0;
  try {
    await wrk(url, c, 2); // warm-up, left out of the summary with start-up
    fromUs = Number(process.hrtime.bigint() / 1000n);
    await wrk(url, c, 10);
  } finally {
    await stopChild(profiled.child);
  }
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  const summary = file ? summariseProfile(path.join(profDir, file), ROOT, 20, fromUs) : '';
  rmSync(profDir, { recursive: true, force: true });
  return summary;
}

/** The three tables' rows, the targets' verdicts and the answer sizes, from the cells of every round. */
function tables(cells: Map<string, TCell>) {
  const roundsOf = (c: number, t: TTargetName) =>
    Array.from({ length: rounds }, (_, r) => cells.get(`${c}:${t}:${r}`)).filter(
      (x): x is TCell => x !== undefined,
    );
  /** A figure of one target over the rounds. */
  const fig = (c: number, t: TTargetName, f: (x: TCell) => number) => roundsOf(c, t).map(f);
  /** A figure comparing two targets within each round (same round, same machine conditions). */
  const pair = <T>(c: number, a: TTargetName, b: TTargetName, f: (x: TCell, y: TCell) => T) =>
    roundsOf(c, a).map((x, i) => f(x, roundsOf(c, b)[i] as TCell));
  const row = (cols: (string | number)[]) => `| ${cols.join(' | ')} |`;
  const verdict = (ok: boolean[]) =>
    ok.every(Boolean)
      ? 'met'
      : ok.some(Boolean)
        ? `met in ${ok.filter(Boolean).length}/${ok.length} rounds`
        : 'missed';
  const out = {
    throughput: [] as string[],
    latency: [] as string[],
    cpu: [] as string[],
    p50Target: [] as string[],
    ratioTarget: [] as string[],
    perCoreTarget: [] as string[],
    sizes: TARGETS.map((t) => {
      const b = concurrencies.flatMap((c) => fig(c, t, (x) => x.bytesPerCall));
      return `${t} ${range(b, (v) => v.toFixed(1))}`;
    }).join(', '),
  };
  for (const c of concurrencies) {
    const one = (t: TTargetName, f: (x: TCell) => number, show: (v: number) => string) =>
      range(fig(c, t, f), show);
    const ratio = (a: TTargetName, b: TTargetName) =>
      range(
        pair(c, a, b, (x, y) => x.rps / y.rps),
        pct,
      );
    const added = (t: TTargetName) =>
      range(
        pair(c, t, 'direct', (x, y) => x.p50 - y.p50),
        ms,
      );
    const errors = TARGETS.flatMap((t) =>
      roundsOf(c, t)
        .filter((x) => x.errors > 0)
        .map((x) => `${t} r${x.round + 1}: ${x.errorDetail}`),
    ).join('; ');
    out.throughput.push(
      row([
        c,
        ...TARGETS.map((t) => one(t, (x) => x.rps, k)),
        ratio('gateway', 'direct'),
        ratio('nginx', 'direct'),
        ratio('gateway', 'nginx'),
        ratio('unpiped', 'nginx'),
        ratio('gateway', 'bare'),
        errors || '0',
      ]),
    );
    out.latency.push(
      row([
        c,
        one('limit', (x) => x.p50, ms),
        one('direct', (x) => x.p50, ms),
        added('nginx'),
        added('bare'),
        added('gateway'),
        added('unpiped'),
        ...(['direct', 'nginx', 'bare', 'gateway', 'unpiped'] as const).map((t) =>
          one(t, (x) => x.p99, ms),
        ),
      ]),
    );
    out.cpu.push(
      row([
        c,
        one('limit', (x) => x.targetCpuUs, us),
        one('direct', (x) => x.targetCpuUs, us),
        one('gateway', (x) => x.upstreamCpuUs, us),
        one('unpiped', (x) => x.upstreamCpuUs, us),
        one('nginx', (x) => x.targetCpuUs, us),
        one('raw', (x) => x.targetCpuUs, us),
        one('bare', (x) => x.targetCpuUs, us),
        one('gateway', (x) => x.targetCpuUs, us),
        one('unpiped', (x) => x.targetCpuUs, us),
        range(
          pair(c, 'nginx', 'gateway', (x, y) => x.targetCpuUs / y.targetCpuUs),
          pct,
        ),
        range(
          pair(c, 'nginx', 'unpiped', (x, y) => x.targetCpuUs / y.targetCpuUs),
          pct,
        ),
        range(
          pair(c, 'nginx', 'raw', (x, y) => x.targetCpuUs / y.targetCpuUs),
          pct,
        ),
        range(
          pair(c, 'gateway', 'bare', (x, y) => x.targetCpuUs - y.targetCpuUs),
          us,
        ),
        range(
          TARGETS.flatMap((t) => fig(c, t, (x) => x.wrkCpuUs)),
          us,
        ),
        one('limit', (x) => (x.wrkCpuUs * x.rps) / 1e6, pct),
      ]),
    );
    out.p50Target.push(
      `c=${c}: ${verdict(pair(c, 'gateway', 'direct', (x, y) => x.p50 - y.p50 < 0.5))}`,
    );
    out.ratioTarget.push(
      `c=${c}: ${verdict(pair(c, 'gateway', 'direct', (x, y) => x.rps / y.rps >= 0.7))}`,
    );
    if (c > 1)
      for (const g of ['gateway', 'unpiped'] as const)
        out.perCoreTarget.push(
          `${g} c=${c}: ${verdict(pair(c, 'nginx', g, (x, y) => x.targetCpuUs / y.targetCpuUs >= 0.75))}`,
        );
  }
  return out;
}

function report(
  cells: Map<string, TCell>,
  run: {
    load0: number[];
    started: Date;
    profileSummary: string;
    profiledC: number;
    logicUs: number;
    httpLogicUs: number;
  },
): string {
  const load1 = os.loadavg();
  const t = tables(cells);
  const where =
    proxyCpu === undefined
      ? 'Placement (`BENCH_PLACEMENT=none`): nothing pinned; the scheduler spreads wrk, the upstream and the proxies over both CPUs.'
      : placement === 'split'
        ? 'Placement (`BENCH_PLACEMENT=split`, `taskset`): the proxies under test (nginx proxy, bare proxy, gateway; one loaded at a time) are pinned to CPU 0; wrk, the upstream, nginx `return 200` and this script to CPU 1. So "direct" and "limit" are wrk and one server sharing CPU 1 (no cross-CPU wake-ups), while every proxied call crosses between the CPUs four times. Other work on the machine is not pinned and lands on either CPU.'
        : 'Placement (`BENCH_PLACEMENT=shared`, `taskset`): wrk, the upstream and every server on CPU 1; CPU 0 is left to the rest of the machine.';
  const lines = [
    `## Gateway (\`npm run bench:gateway\`, placement ${placement})`,
    '',
    `Run ${run.started.toISOString()}: ${rounds} rounds; in each, every target is measured once per concurrency for ${seconds} s`,
    `(after a ${warmup} s warm-up), in an order that rotates from round to round. Each range below is min–max over the rounds;`,
    'ratios and added latencies compare targets within the same round. Load: wrk 4 (C), one thread, *c* keep-alive',
    'connections, closed loop (each connection sends the next call when the answer arrives), `POST` of',
    '`eth_blockNumber`. Targets: **limit** — nginx answering the call itself (`return 200`, a second nginx process',
    'placed like the upstream): the most wrk and this machine can do through one HTTP hop; **direct** — the upstream, a minimal node:http JSON-RPC responder',
    '(`bench/gateway-upstream.ts`); **nginx** — nginx 1.22 as a proxy in front of it (one worker, no master,',
    'access log off, upstream `keepalive 128`, HTTP/1.1); **raw** — the floor of a Node proxy',
    '(`bench/gateway-raw-proxy.ts`: raw sockets in and out, HTTP parsed by hand, no checks, the calls of one turn',
    `pipelined up like the gateway's, \`UPSTREAM_PIPELINE=${pipelineDepth}\`); **bare** — a plain Node`,
    'proxy (`bench/gateway-bare-proxy.ts`: node:http in, undici out, no checks); **gateway** — `POST /v1/localnet/{key}`',
    'with the whole hot path on (the raw front and the raw upstream client; key, allowlists, token buckets, routing,',
    `RU metering, usage aggregation and journal), with \`UPSTREAM_PIPELINE=${pipelineDepth}\`: the quick reads of one`,
    'event-loop turn written together on one upstream connection (HTTP/1.1 pipelining, `raw-http-client.ts`);',
    '**unpiped** — the same gateway with `UPSTREAM_PIPELINE=1`, one call per upstream connection at a time.',
    where,
    '',
    `Machine: ${machine()}. Load average (1, 5, 15 min) at the start: ${run.load0.map((x) => x.toFixed(2)).join(', ')}; at the end: ${load1.map((x) => x.toFixed(2)).join(', ')}`,
    `(other work shares the machine's ${os.cpus().length} CPUs: compare figures within one run; ratios travel better than req/s).`,
    '',
    'Throughput (calls per second) and ratios:',
    '',
    '| c | limit | direct | nginx | raw | bare | gateway | unpiped | gateway / direct | nginx / direct | gateway / nginx | unpiped / nginx | gateway / bare | errors |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...t.throughput,
    '',
    `Bytes read per answer (headers and body, from wrk; one value per target means every answer had the same size,`,
    `so none was an error in disguise): ${t.sizes}. Every target was also checked to answer a JSON-RPC result before and after the rounds.`,
    '',
    'Latency (ms; "added" is p50 minus direct p50 in the same round):',
    '',
    '| c | limit p50 | direct p50 | added p50 nginx | added p50 bare | added p50 gateway | added p50 unpiped | direct p99 | nginx p99 | bare p99 | gateway p99 | unpiped p99 |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...t.latency,
    '',
    'CPU per call (µs, user + system of the process from `/proc/<pid>/stat`, divided by the calls of the cell):',
    '',
    '| c | nginx `return 200` | upstream (direct) | upstream (behind gateway) | upstream (behind unpiped) | nginx proxy | raw proxy | bare proxy | gateway | unpiped | per core: gateway / nginx | per core: unpiped / nginx | per core: raw / nginx | gateway − bare | wrk | wrk busy at the limit |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...t.cpu,
    '',
    `Targets: added p50 < 0.5 ms — ${t.p50Target.join(', ')}; throughput ≥ 70% of direct — ${t.ratioTarget.join(', ')};`,
    `per core ≥ 75% of nginx (nginx's CPU per call / the gateway's, issue 17 item 3) — ${t.perCoreTarget.join(', ') || 'n/a'}.`,
    'One core serves about 1,000,000 / (CPU per call) calls per second. "Gateway − bare" is what the gateway\'s own',
    'work costs on top of a Node HTTP hop; "wrk busy at the limit" is the share of one core wrk used while driving',
    'the fastest target: below 100% wrk had time to spare, so it did not cap that target nor any slower one (with',
    '`shared` placement wrk and the servers split one CPU, and that CPU is the cap).',
    '',
    "The gateway's own work measured without sockets (`bench/gateway-logic.ts`: one key, a RuBudget, usage and",
    "metrics, an upstream that answers at once, best of 5 × 20,000 calls): through the raw front's entry",
    `(\`serveReadCall\`, production's path for a plain POST) **${run.logicUs.toFixed(1)} µs CPU per call**; through`,
    `node:http's handler with stand-in request and response objects ${run.httpLogicUs.toFixed(1)} µs.`,
  ];
  if (run.profileSummary)
    lines.push(
      '',
      `### Where the gateway's time goes (\`BENCH_PROFILE=1\`: V8 \`--cpu-prof\` of a separate gateway process under wrk, 10 s at c=${run.profiledC} after start-up and a 2 s warm-up; shares of its busy samples, idle excluded)`,
      '',
      run.profileSummary,
    );
  return lines.join('\n') + '\n';
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
