/**
 * npm run bench:gateway — throughput and p50/p99 latency of eth_blockNumber straight to a fast local upstream
 * versus through the gateway, at several concurrencies; writes the figures and the machine into
 * docs/benchmarks.md. The gateway runs alone on CPU 0; the load generator and the upstream share CPU 1.
 * Options (env): BENCH_SECONDS (default 3), BENCH_ROUNDS (default 3, medians reported), BENCH_CONCURRENCY (default "1,16,64"), BENCH_PROFILE=1 to also
 * record a --cpu-prof of the gateway at the middle concurrency and summarise where its time goes.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { machine } from './bench-doc';
import { measureGatewayLogic } from './gateway-logic';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const concurrencies = (process.env.BENCH_CONCURRENCY ?? '1,16,64').split(',').map(Number);
const profile = process.env.BENCH_PROFILE === '1';
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * split: gateway alone on CPU 0, load generator + upstream on CPU 1 (the gateway gets one core to itself, but
 * every gateway call crosses CPUs four times, which costs a lot on a VM); shared: all three on CPU 1 (no
 * cross-CPU wake-ups; the gateway shares its one core with the load); none: no pinning.
 */
const placement = (process.env.BENCH_PLACEMENT ?? 'split') as 'split' | 'shared' | 'none';
const gatewayCpu = placement === 'split' ? 0 : 1;
const hasTaskset =
  placement !== 'none' &&
  (() => {
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

type TProc = { child: ChildProcess; port: number };

function startNode(
  script: string,
  cpu: number,
  env: Record<string, string>,
  extraArgs: string[] = [],
): Promise<TProc> {
  const args = [...extraArgs, '--import', 'tsx', path.join(root, script)];
  const child = hasTaskset
    ? spawn('taskset', ['-c', String(cpu), process.execPath, ...args], {
        cwd: root,
        env: { ...process.env, ...env },
      })
    : spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env } });
  child.stderr?.pipe(process.stderr);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

function stopNode(p: TProc): Promise<void> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    p.child.kill('SIGTERM');
  });
}

/** utime + stime of a process in ms, from /proc (the gateway's CPU cost per request). */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return NaN;
  }
}

type TResult = {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  count: number;
  total: number;
};

/** A closed-loop load generator: `concurrency` callers, each sending the next call when the last one returns. */
async function load(url: string, concurrency: number, durationMs: number): Promise<TResult> {
  const u = new URL(url);
  const pool = new Pool(u.origin, {
    connections: concurrency,
    pipelining: 1,
    keepAliveTimeout: 60_000,
  });
  const latencies: number[] = [];
  let errors = 0;
  let total = 0;
  let recording = false;
  let stop = false;
  const body = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';
  const worker = async () => {
    while (!stop) {
      const t0 = process.hrtime.bigint();
      try {
        const res = await pool.request({
          path: u.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const text = await res.body.text();
        if (res.statusCode !== 200 || !text.includes('"result"')) errors += 1;
      } catch {
        errors += 1;
      }
      total += 1;
      if (recording) latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  const workers = Array.from({ length: concurrency }, worker);
  await new Promise((r) => setTimeout(r, Math.min(1000, durationMs / 4))); // warm-up: connections, JIT
  recording = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, durationMs));
  recording = false;
  const elapsed = performance.now() - t0;
  const count = latencies.length;
  stop = true;
  await Promise.all(workers);
  await pool.close();
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(count - 1, Math.floor((p / 100) * count))] ?? NaN;
  return {
    rps: (count / elapsed) * 1000,
    p50: q(50),
    p90: q(90),
    p99: q(99),
    errors,
    count,
    total,
  };
}

type TCpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
};

/** Self time per function (top n), and per area of the code, from a V8 .cpuprofile. */
function summariseProfile(file: string, n: number): string {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as TCpuProfile;
  const byId = new Map(prof.nodes.map((x) => [x.id, x]));
  const self = new Map<string, number>();
  const area = new Map<string, number>();
  let total = 0;
  prof.samples.forEach((id, i) => {
    const dt = prof.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    total += dt;
    const { functionName, url, lineNumber } = node.callFrame;
    const short = url.replace(/^file:\/\//, '').replace(root + '/', '');
    const name =
      `${functionName || '(anonymous)'} ${short ? `${short}:${lineNumber + 1}` : ''}`.trim();
    self.set(name, (self.get(name) ?? 0) + dt);
    const where =
      functionName === '(garbage collector)'
        ? 'garbage collection'
        : functionName === '(program)'
          ? 'native code outside JS (V8 (program))'
          : short.includes('apps/gateway/src')
            ? 'gateway code (apps/gateway/src)'
            : short.includes('node_modules/undici')
              ? 'undici (upstream client)'
              : short.startsWith('node:')
                ? 'Node core JS (http, net, streams, events)'
                : short === ''
                  ? 'natives called from JS (syscalls such as writev, parser)'
                  : 'other';
    area.set(where, (area.get(where) ?? 0) + dt);
  });
  const pct = (v: number) => `${((v / total) * 100).toFixed(1)}%`;
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  const areas = [...area.entries()].sort((a, b) => b[1] - a[1]);
  return [
    '| area | share of samples |',
    '|---|---:|',
    ...areas.map(([k, v]) => `| ${k} | ${pct(v)} |`),
    '',
    `Top ${n} functions by self time:`,
    '',
    '| function | self |',
    '|---|---:|',
    ...rows.map(([k, v]) => `| \`${k.replace(/\|/g, '\\|')}\` | ${pct(v)} |`),
  ].join('\n');
}

const fmt = (v: number, d = 3) => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');

async function main(): Promise<void> {
  pin(process.pid, 1);
  const upstream = await startNode('bench/gateway-upstream.ts', 1, {});
  const upstreamUrl = `http://127.0.0.1:${upstream.port}`;
  const gateway = await startNode('bench/gateway-server.ts', gatewayCpu, {
    BENCH_UPSTREAM: upstreamUrl,
  });
  const gatewayUrl = `http://127.0.0.1:${gateway.port}/v1/localnet/bench-key`;
  const bare = await startNode('bench/gateway-bare-proxy.ts', gatewayCpu, {
    BENCH_UPSTREAM: upstreamUrl,
  });
  const bareUrl = `http://127.0.0.1:${bare.port}/`;
  const lines: string[] = [];
  const rows: string[] = [];
  const bareRows: string[] = [];
  const summary: { c: number; addedP50: number; ratio: number }[] = [];
  const load0 = os.loadavg();
  try {
    for (const c of concurrencies) {
      // Alternate direct and gateway runs and keep the median of each, so a burst of load elsewhere on the
      // machine hits both sides alike.
      const ds: (TResult & { cpuPerCallUs: number })[] = [];
      const gs: (TResult & { cpuPerCallUs: number })[] = [];
      const bs: (TResult & { cpuPerCallUs: number })[] = [];
      for (let round = 0; round < rounds; round++) {
        const b0 = cpuMs(bare.child.pid ?? 0);
        const br = await load(bareUrl, c, seconds * 1000);
        bs.push({ ...br, cpuPerCallUs: ((cpuMs(bare.child.pid ?? 0) - b0) * 1000) / br.total });
        const up0 = cpuMs(upstream.child.pid ?? 0);
        const dr = await load(upstreamUrl, c, seconds * 1000);
        ds.push({
          ...dr,
          cpuPerCallUs: ((cpuMs(upstream.child.pid ?? 0) - up0) * 1000) / dr.total,
        });
        const cpu0 = cpuMs(gateway.child.pid ?? 0);
        const g = await load(gatewayUrl, c, seconds * 1000);
        const gwCpu = cpuMs(gateway.child.pid ?? 0) - cpu0;
        gs.push({ ...g, cpuPerCallUs: (gwCpu * 1000) / g.total }); // warm-up calls included on both sides
      }
      const med = <T>(xs: T[], f: (x: T) => number) => {
        const v = xs.map(f).sort((a, b) => a - b);
        return v[Math.floor(v.length / 2)] as number;
      };
      const d = {
        cpuPerCallUs: med(ds, (x) => x.cpuPerCallUs),
        rps: med(ds, (x) => x.rps),
        p50: med(ds, (x) => x.p50),
        p99: med(ds, (x) => x.p99),
        errors: ds.reduce((a, x) => a + x.errors, 0),
      };
      const g = {
        rps: med(gs, (x) => x.rps),
        p50: med(gs, (x) => x.p50),
        p99: med(gs, (x) => x.p99),
        errors: gs.reduce((a, x) => a + x.errors, 0),
        cpuPerCallUs: med(gs, (x) => x.cpuPerCallUs),
      };
      const b = {
        rps: med(bs, (x) => x.rps),
        p50: med(bs, (x) => x.p50),
        p99: med(bs, (x) => x.p99),
        cpu: med(bs, (x) => x.cpuPerCallUs),
      };
      bareRows.push(
        `| ${c} | ${fmt(b.rps, 0)} | ${fmt(b.p50)} | ${fmt(b.p99)} | ${fmt(b.p50 - d.p50)} | ${((b.rps / d.rps) * 100).toFixed(0)}% | ${fmt(b.cpu, 0)} µs |`,
      );
      const addedP50 = g.p50 - d.p50;
      const ratio = g.rps / d.rps;
      summary.push({ c, addedP50, ratio });
      rows.push(
        `| ${c} | ${fmt(d.rps, 0)} | ${fmt(d.p50)} | ${fmt(d.p99)} | ${fmt(g.rps, 0)} | ${fmt(g.p50)} | ${fmt(g.p99)} | ${fmt(addedP50)} | ${(ratio * 100).toFixed(0)}% | ${fmt(g.cpuPerCallUs, 0)} µs | ${fmt(d.cpuPerCallUs, 0)} µs | ${d.errors + g.errors} |`,
      );
      console.log(rows[rows.length - 1]);
    }
  } finally {
    await stopNode(gateway);
    await stopNode(bare);
  }
  // Profile a separate gateway process, so the profiler's own cost stays out of the figures above.
  let profileSummary = '';
  const profiledConcurrency = concurrencies[Math.floor(concurrencies.length / 2)] ?? 16;
  if (profile) {
    const profDir = mkdtempSync(path.join(os.tmpdir(), 'gw-prof-'));
    const profiled = await startNode(
      'bench/gateway-server.ts',
      gatewayCpu,
      { BENCH_UPSTREAM: upstreamUrl },
      ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
    );
    try {
      await load(
        `http://127.0.0.1:${profiled.port}/v1/localnet/bench-key`,
        profiledConcurrency,
        10_000,
      );
    } finally {
      await stopNode(profiled);
    }
    const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    if (file) profileSummary = summariseProfile(path.join(profDir, file), 20);
  }
  await stopNode(upstream);
  const logicUs = await measureGatewayLogic();

  lines.push(
    `## Gateway (\`npm run bench:gateway\`, placement ${placement})`,
    '',
    `Run ${new Date().toISOString()}. ${rounds} alternating rounds of ${seconds} s per side after a warm-up, medians shown;`,
    'closed loop (each of *c* callers sends the',
    'next call as soon as the previous one returns); `eth_blockNumber` through `POST /v1/localnet/{key}` with the full',
    'hot path on (key lookup, allowlists, token buckets, routing, RU metering, usage aggregation) versus the same call',
    'straight to the upstream. Upstream: a minimal node:http JSON-RPC responder (`bench/gateway-upstream.ts`).',
    !hasTaskset
      ? 'Placement (`BENCH_PLACEMENT=none`): processes not pinned.'
      : placement === 'split'
        ? 'Placement (`BENCH_PLACEMENT=split`): gateway alone on CPU 0 (`taskset`); load generator (undici) and upstream share CPU 1.'
        : 'Placement (`BENCH_PLACEMENT=shared`): gateway, load generator and upstream all on CPU 1 (`taskset`).',
    '',
    `Machine: ${machine()}. Load average when the run started: ${load0.map((x) => x.toFixed(2)).join(', ')}`,
    `(other work on the machine shares its ${os.cpus().length} CPUs; figures are only comparable within one run).`,
    '',
    '| c | direct req/s | direct p50 ms | direct p99 ms | gateway req/s | gateway p50 ms | gateway p99 ms | added p50 ms | gateway / direct | gateway CPU per call | upstream CPU per call | errors |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Targets: added p50 < 0.5 ms — ${summary.map((s) => `c=${s.c}: ${s.addedP50 < 0.5 ? 'met' : 'missed'}`).join(', ')};`,
    `throughput ≥ 70% of direct — ${summary.map((s) => `c=${s.c}: ${s.ratio >= 0.7 ? 'met' : 'missed'}`).join(', ')}.`,
    '"Gateway CPU per call" is the gateway process\'s user+system CPU time divided by the calls it served: one core',
    'sustains about 1,000,000 / that figure calls per second. "Upstream CPU per call" is the same measure for the',
    'minimal upstream during the direct runs: the floor for any Node HTTP server on this machine under the same',
    'conditions (the gateway is a server *and* a client, so about twice that is its floor).',
    '',
    'Baseline for the proxying itself — the barest Node proxy (`bench/gateway-bare-proxy.ts`: node:http in, undici',
    'out, bytes passed through, no checks), same placement as the gateway, measured in the same rounds:',
    '',
    '| c | bare proxy req/s | p50 ms | p99 ms | added p50 ms | bare / direct | CPU per call |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...bareRows,
    '',
    "The gap between the bare proxy and the gateway is the cost of the gateway's own work (key, limits, metering,",
    'routing, usage); the gap between direct and the bare proxy is the cost of any extra HTTP hop on this machine.',
    '',
    "The gateway's own work measured without sockets (`bench/gateway-logic.ts`: the real handler driven with",
    'stand-in request/response objects and an upstream that answers at once, best of 5 × 20,000 calls):',
    `**${logicUs.toFixed(1)} µs CPU per call**.`,
  );
  if (profileSummary) {
    lines.push(
      '',
      `### Where the gateway's time goes (\`BENCH_PROFILE=1\`: V8 \`--cpu-prof\` of a separate gateway process, 10 s at c=${profiledConcurrency}; shares of its busy samples, idle excluded, start-up included)`,
      '',
      profileSummary,
    );
  }
  const section = lines.join('\n') + '\n';
  const doc = path.join(root, 'docs', 'benchmarks.md');
  // One section per placement, so a split run and an unpinned run can stand side by side.
  const start = `<!-- bench:gateway:${placement}:start -->`;
  const end = `<!-- bench:gateway:${placement}:end -->`;
  const block = `${start}\n${section}${end}`;
  let text = existsSync(doc)
    ? readFileSync(doc, 'utf8')
    : '# Benchmarks\n\nFigures written by the scripts in `bench/`.\n';
  if (text.includes(start) && text.includes(end)) {
    text = text.slice(0, text.indexOf(start)) + block + text.slice(text.indexOf(end) + end.length);
  } else {
    text = `${text.trimEnd()}\n\n${block}\n`;
  }
  // Formatted like the rest of the repo, so `npm run format:check` stays green after a bench run.
  const prettier = await import('prettier');
  writeFileSync(
    doc,
    await prettier.format(text, { ...(await prettier.resolveConfig(doc)), parser: 'markdown' }),
  );
  console.log(`\nwritten to ${path.relative(root, doc)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
