/**
 * The C tools bench:gateway measures with: wrk as the load generator and nginx as the reference proxy (both
 * Debian packages, installed when missing), plus the per-process CPU counters read from /proc.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from './bench-doc';

export const CALL_BODY = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';
const REPLY_BODY = '{"jsonrpc":"2.0","id":1,"result":"0x12a05f2"}';

function which(cmd: string): string | undefined {
  try {
    const out = execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim();
    if (out) return out;
  } catch {
    // not on PATH; nginx lives in /usr/sbin, which a non-root PATH often lacks
  }
  return ['/usr/sbin', '/usr/bin'].map((d) => path.join(d, cmd)).find((p) => existsSync(p));
}

/**
 * Paths of wrk and nginx, installing the Debian packages first when either is missing (as scripts/test-all.sh
 * installs chromium: sudo when not root). On a machine with an init system the package also starts a system
 * nginx on port 80; the bench never uses it.
 */
export function ensureTools(): { wrk: string; nginx: string } {
  let wrk = which('wrk');
  let nginx = which('nginx');
  if (!wrk || !nginx) {
    const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
    const apt = (args: string[]) =>
      execFileSync(sudo[0] ?? 'apt-get', [...(sudo.length ? ['apt-get'] : []), ...args], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    console.log('installing wrk and nginx-light (Debian packages) for bench:gateway');
    apt(['update', '-qq']);
    apt(['install', '-y', '-qq', 'wrk', 'nginx-light']);
    wrk = which('wrk');
    nginx = which('nginx');
  }
  if (!wrk || !nginx)
    throw new Error('wrk and nginx are required (apt-get install wrk nginx-light)');
  return { wrk, nginx };
}

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime and stime in ms from one /proc/<pid>/stat line (all threads of the process). */
function statTimesMs(stat: string): { user: number; system: number } {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    user: (Number(fields[11]) * 1000) / CLK_TCK,
    system: (Number(fields[12]) * 1000) / CLK_TCK,
  };
}

/** utime + stime in ms from one /proc/<pid>/stat line. */
function statCpuMs(stat: string): number {
  const t = statTimesMs(stat);
  return t.user + t.system;
}

/** utime + stime of a live process in ms; NaN when it is gone. */
export function cpuMs(pid: number | undefined): number {
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return NaN;
  }
}

/** utime (user space) of a live process in ms, the part of `cpuMs` spent outside the kernel; NaN when gone. */
export function userCpuMs(pid: number | undefined): number {
  try {
    return statTimesMs(readFileSync(`/proc/${pid}/stat`, 'utf8')).user;
  } catch {
    return NaN;
  }
}

/**
 * utime + stime in ms of every process named `postgres` on this machine (the server and its backends, autovacuum
 * and writers): what the database does for a product target, read around a cell. Backends that end within the
 * cell take their time with them; the gateway's pool keeps its connections, so that is rare.
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      total += statCpuMs(stat);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, log: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null)
      throw new Error(`nginx exited with ${child.exitCode}: ${readLog(log)}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not listen on ${port}: ${readLog(log)}`);
}

function readLog(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : '(no error log)';
}

export type TNginx = { child: ChildProcess; port: number };

/**
 * One nginx process in the foreground (no master, one worker, no access log) that either proxies to
 * `upstreamPort` with a keep-alive upstream pool (the reference proxy) or, with no upstream, answers the call
 * itself with `return 200` (the fastest HTTP server this machine has: what wrk can drive at most).
 */
export async function startNginx(opts: {
  bin: string;
  dir: string;
  name: string;
  upstreamPort?: number;
  cpu?: number;
  /** the caller's list of processes to stop on the way out (as startBenchNode's `children`) */
  children: ChildProcess[];
}): Promise<TNginx> {
  const port = await freePort();
  const t = (file: string) => path.join(opts.dir, `${opts.name}-${file}`);
  const log = t('error.log');
  const conf = t('nginx.conf');
  const location =
    opts.upstreamPort === undefined
      ? `default_type application/json;
      return 200 '${REPLY_BODY}';`
      : `proxy_pass http://bench_upstream;
      proxy_http_version 1.1;
      proxy_set_header Connection "";`;
  const upstream =
    opts.upstreamPort === undefined
      ? ''
      : `upstream bench_upstream {
    server 127.0.0.1:${opts.upstreamPort};
    keepalive 128;
    keepalive_requests 100000000;
  }`;
  writeFileSync(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
pid ${t('nginx.pid')};
error_log ${log} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${t('client_body')};
  proxy_temp_path ${t('proxy')};
  fastcgi_temp_path ${t('fastcgi')};
  uwsgi_temp_path ${t('uwsgi')};
  scgi_temp_path ${t('scgi')};
  # The Node servers never close a busy keep-alive connection; nor does nginx here (its default is 1000 calls).
  keepalive_requests 100000000;
  keepalive_timeout 60s;
  ${upstream}
  server {
    listen 127.0.0.1:${port};
    location / {
      ${location}
    }
  }
}
`,
  );
  const args = ['-e', log, '-p', opts.dir, '-c', conf];
  const stdio: ['ignore', 'ignore', 'pipe'] = ['ignore', 'ignore', 'pipe'];
  const child =
    opts.cpu === undefined
      ? spawn(opts.bin, args, { stdio })
      : spawn('taskset', ['-c', String(opts.cpu), opts.bin, ...args], { stdio });
  child.stderr?.pipe(process.stderr);
  opts.children.push(child);
  try {
    await waitForPort(port, child, log);
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
  return { child, port };
}

export type TWrkResult = {
  rps: number;
  requests: number;
  seconds: number;
  p50: number;
  p90: number;
  p99: number;
  /** non-2xx/3xx answers plus socket errors (connect, read, write, timeout) */
  errors: number;
  errorDetail: string;
  /** bytes read per answer (headers and body): constant when every answer is the same result */
  bytesPerCall: number;
  /** wrk's own user + system CPU per call, µs */
  wrkCpuUs: number;
};

/**
 * The wrk script: POST the call, and print the summary and wrk's own CPU as machine-readable lines. With `paths`,
 * each call goes to the next path in turn (requests formatted once, at start), so the load spreads over many keys.
 */
export function writeWrkScript(
  dir: string,
  opts: { name?: string; paths?: string[] } = {},
): string {
  const file = path.join(dir, `${opts.name ?? 'eth-block-number'}.lua`);
  const rotate = opts.paths?.length
    ? `local paths = { ${opts.paths.map((p) => JSON.stringify(p)).join(', ')} }
local requests = {}
local next_request = 0
init = function(args)
  for i, p in ipairs(paths) do
    requests[i] = wrk.format(nil, p)
  end
end
request = function()
  next_request = next_request % #requests + 1
  return requests[next_request]
end
`
    : '';
  writeFileSync(
    file,
    `wrk.method = "POST"
wrk.body = '${CALL_BODY}'
wrk.headers["Content-Type"] = "application/json"
${rotate}

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"bytes":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50":%d,"p90":%d,"p99":%d}\\n',
    summary.requests, summary.bytes, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99)))
  local f = io.open("/proc/self/stat", "r")
  if f then
    io.write("WRK_STAT ", f:read("*l"), "\\n")
    f:close()
  end
end
`,
  );
  return file;
}

/** One closed-loop wrk run: one thread, `connections` connections, each sending the next call on each answer. */
export function runWrk(opts: {
  bin: string;
  script: string;
  url: string;
  connections: number;
  seconds: number;
  cpu?: number;
}): Promise<TWrkResult> {
  const args = [
    '-t1',
    `-c${opts.connections}`,
    `-d${opts.seconds}s`,
    '--timeout',
    '5s',
    '-s',
    opts.script,
    opts.url,
  ];
  const child =
    opts.cpu === undefined
      ? spawn(opts.bin, args)
      : spawn('taskset', ['-c', String(opts.cpu), opts.bin, ...args]);
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const m = /^WRK_RESULT (.*)$/m.exec(out);
      const stat = /^WRK_STAT (.*)$/m.exec(out);
      if (code !== 0 || !m?.[1])
        return reject(new Error(`wrk exited with ${code}: ${err.trim()} ${out.trim()}`));
      const r = JSON.parse(m[1]) as Record<
        | 'requests'
        | 'bytes'
        | 'duration_us'
        | 'connect'
        | 'read'
        | 'write'
        | 'status'
        | 'timeout'
        | 'p50'
        | 'p90'
        | 'p99',
        number
      >;
      const socket = r.connect + r.read + r.write + r.timeout;
      const detail = [
        r.status ? `${r.status} non-2xx` : '',
        socket
          ? `socket connect ${r.connect} read ${r.read} write ${r.write} timeout ${r.timeout}`
          : '',
      ]
        .filter(Boolean)
        .join(', ');
      resolve({
        rps: r.requests / (r.duration_us / 1e6),
        requests: r.requests,
        seconds: r.duration_us / 1e6,
        p50: r.p50 / 1000,
        p90: r.p90 / 1000,
        p99: r.p99 / 1000,
        errors: r.status + socket,
        bytesPerCall: r.bytes / r.requests,
        errorDetail: detail,
        wrkCpuUs: stat?.[1] ? (statCpuMs(stat[1]) * 1000) / r.requests : NaN,
      });
    });
  });
}

/** One call through `url` must come back as a JSON-RPC result, or the bench would be timing error answers. */
export async function checkAnswers(url: string): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: CALL_BODY,
  });
  const text = await res.text();
  if (res.status !== 200 || !text.includes('"result"'))
    throw new Error(`${url} answered ${res.status} ${text.slice(0, 200)}`);
}

export type TNodeProc = { child: ChildProcess; port: number };

/**
 * A bench script (bench/gateway-upstream.ts, gateway-server.ts, …) in its own Node process, pinned to `cpu` with
 * taskset when given; resolves with the port it prints (`PORT n`). The child is added to `children`, so the
 * caller can stop every process it started whatever happens.
 */
export function startBenchNode(
  script: string,
  o: {
    children: ChildProcess[];
    env?: Record<string, string>;
    cpu?: number;
    nodeArgs?: string[];
    /** the checkout the script runs from (default: this one; bench:gateway-ab runs a second one) */
    root?: string;
  },
): Promise<TNodeProc> {
  const root = o.root ?? ROOT;
  const args = [...(o.nodeArgs ?? []), '--import', 'tsx', path.join(root, script)];
  const opts = { cwd: root, env: { ...process.env, ...o.env } };
  const child =
    o.cpu === undefined
      ? spawn(process.execPath, args, opts)
      : spawn('taskset', ['-c', String(o.cpu), process.execPath, ...args], opts);
  o.children.push(child);
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

/** SIGTERM, resolved once the process has exited (at once when it already has). */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Figures as the gateway benches print them: thousands, µs, percent. */
export const fmtK = (v: number) => `${(v / 1000).toFixed(1)}k`;
export const fmtUs = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : 'n/a');
export const fmtPct = (v: number) => `${(v * 100).toFixed(0)}%`;
/** min–max of a figure over the rounds, one value when they agree at the precision shown. */
export function range(xs: number[], f: (v: number) => string): string {
  const lo = f(Math.min(...xs));
  const hi = f(Math.max(...xs));
  return lo === hi ? lo : `${lo}–${hi}`;
}
