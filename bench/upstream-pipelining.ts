/**
 * npm run bench:upstream-pipelining — issue 17 item 3, "try what moves the figure": how much CPU per call the
 * upstream half of a proxy would save by HTTP/1.1 pipelining (several requests in one write on one keep-alive
 * connection) instead of one request per connection at a time, as the gateway's raw upstream client does
 * (apps/gateway/src/raw-http-client.ts). This process is the client: a loop on raw sockets that does what that
 * client does per call (write the request, frame the answer by Content-Length), with `conns` connections each
 * keeping `depth` calls in flight, written at once; 16 calls in flight in every configuration, as a gateway has at
 * c = 16. Against the bench upstream (bench/gateway-upstream.ts, node:http), whose CPU per call is shown too.
 *
 * It measures the potential, not the gateway: a gateway pipelines only the calls that are in flight at the same
 * time, which depends on how many arrive in one event-loop turn.
 *
 * Options (env): BENCH_SECONDS (default 4) per cell after a 1 s warm-up, BENCH_ROUNDS (default 3), BENCH_DOC=0.
 */
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import { machine, writeBenchSection } from './bench-doc';
import { CALL_BODY, cpuMs, fmtK, range, startBenchNode, stopChild } from './gateway-tools';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** [connections, calls in flight per connection]: 16 in flight each. */
const CONFIGS: Array<[number, number]> = [
  [16, 1],
  [4, 4],
  [2, 8],
  [1, 16],
];

type TCell = { callsPerS: number; clientUs: number; upstreamUs: number };

const REQUEST = `POST /v1/bench HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(CALL_BODY)}\r\nconnection: keep-alive\r\n\r\n${CALL_BODY}`;
const HEAD_END = Buffer.from('\r\n\r\n');

/** `conns` connections, each writing `depth` requests at once and the next `depth` when all are answered. */
async function cell(
  port: number,
  upstreamPid: number,
  conns: number,
  depth: number,
): Promise<TCell> {
  const burst = REQUEST.repeat(depth);
  let calls = 0;
  let stop = false;
  const sockets: net.Socket[] = [];
  for (let i = 0; i < conns; i++) {
    const s = net.connect({ port, host: '127.0.0.1', noDelay: true });
    sockets.push(s);
    let buf: Buffer = Buffer.alloc(0);
    let pending = 0;
    const send = () => {
      if (stop) return;
      pending = depth;
      s.write(burst);
    };
    s.on('connect', send);
    s.on('error', () => {});
    s.on('data', (chunk: Buffer) => {
      buf = buf.length > 0 ? Buffer.concat([buf, chunk]) : chunk;
      for (;;) {
        const end = buf.indexOf(HEAD_END);
        if (end < 0) return;
        const m = /content-length: *(\d+)/i.exec(buf.toString('latin1', 0, end));
        if (!m) throw new Error('answer without content-length');
        const total = end + 4 + Number(m[1]);
        if (buf.length < total) return;
        buf = buf.subarray(total);
        calls++;
        if (--pending === 0) send();
      }
    });
  }
  await new Promise((r) => setTimeout(r, 1000));
  const c0 = calls;
  const u0 = process.cpuUsage();
  const up0 = cpuMs(upstreamPid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const n = calls - c0;
  const seconds = (performance.now() - t0) / 1000;
  const u = process.cpuUsage(u0);
  const up = cpuMs(upstreamPid) - up0;
  stop = true;
  for (const s of sockets) s.destroy();
  return {
    callsPerS: n / seconds,
    clientUs: (u.user + u.system) / n,
    upstreamUs: (up * 1000) / n,
  };
}

async function main(): Promise<void> {
  const children: ChildProcess[] = [];
  const load0 = os.loadavg();
  const results = new Map<string, TCell[]>();
  try {
    const upstream = await startBenchNode('bench/gateway-upstream.ts', { children });
    const pid = upstream.child.pid as number;
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < CONFIGS.length; i++) {
        const [conns, depth] = CONFIGS[(i + round) % CONFIGS.length] as [number, number];
        const r = await cell(upstream.port, pid, conns, depth);
        const key = `${conns}×${depth}`;
        results.set(key, [...(results.get(key) ?? []), r]);
        console.log(
          `round ${round + 1} ${key.padEnd(5)} ${fmtK(r.callsPerS)} calls/s  client ${r.clientUs.toFixed(1)} µs/call  upstream ${r.upstreamUs.toFixed(1)} µs/call`,
        );
      }
    }
  } finally {
    await Promise.all(children.map(stopChild));
  }
  const load1 = os.loadavg();
  const fmtLoad = (l: number[]) => l.map((x) => x.toFixed(2)).join(', ');
  const rows = CONFIGS.map(([conns, depth]) => {
    const cells = results.get(`${conns}×${depth}`) ?? [];
    return `| ${conns} | ${depth} | ${range(
      cells.map((c) => c.callsPerS),
      fmtK,
    )} | ${range(
      cells.map((c) => c.clientUs),
      (v) => v.toFixed(1),
    )} | ${range(
      cells.map((c) => c.upstreamUs),
      (v) => v.toFixed(1),
    )} |`;
  });
  const section = `## Upstream pipelining, the potential (\`npm run bench:upstream-pipelining\`)

Run ${new Date().toISOString()}: ${ROUNDS} rounds of ${SECONDS} s per cell after a 1 s warm-up, configurations in
an order that rotates from round to round; ranges are min–max over the rounds. The bench process is the client
(raw sockets, what the gateway's raw upstream client does per call), 16 calls in flight in every row, against the
bench upstream (node:http). "1 call per connection" is how the gateway talks to a plain-http upstream today.
Load average ${fmtLoad(load0)} at the start, ${fmtLoad(load1)} at the end.

Machine: ${machine()}.

| connections | calls in flight per connection (written at once) | calls/s | client CPU per call (µs) | upstream CPU per call (µs) |
| --: | --: | --: | --: | --: |
${rows.join('\n')}
`;
  await writeBenchSection('upstream-pipelining', section);
}

await main();
