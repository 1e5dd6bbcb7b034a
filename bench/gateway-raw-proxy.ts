/**
 * Bench baseline: the floor of a Node proxy — raw sockets in and out (node:net), HTTP/1.1 parsed by hand,
 * Content-Length bodies only, no checks. What Node costs per proxied call without node:http and undici; the
 * gateway's raw front and raw upstream client (apps/gateway/src/raw-front.ts, raw-http-client.ts) do the same
 * framing with the checks a product needs. Like the gateway, it pipelines: the calls read in one event-loop turn
 * go up together on one connection, at most UPSTREAM_PIPELINE (default 8) per write, and the answers come back
 * in order (UPSTREAM_PIPELINE=1: one call per connection at a time), and it reads every socket into one reused
 * buffer as the gateway does (apps/gateway/src/socket-reads.ts). Not product code: no chunked bodies, no limits,
 * no timeouts.
 */
import net from 'node:net';
import { adoptSocket, copyingReads } from '../apps/gateway/src/socket-reads';

const upstream = new URL(process.env.BENCH_UPSTREAM ?? '');
const CRLF2 = Buffer.from('\r\n\r\n');

type TCallback = (status: number, body: Buffer) => void;
type TUp = { sock: net.Socket; buf: Buffer; cbs: TCallback[] };
const DEPTH = Math.max(1, Number(process.env.UPSTREAM_PIPELINE ?? 8));
const idle: TUp[] = [];
const waiting: Array<(u: TUp) => void> = [];

function headValue(head: string, name: string): string | undefined {
  const i = head.toLowerCase().indexOf(`\r\n${name}:`);
  if (i < 0) return undefined;
  const end = head.indexOf('\r\n', i + 2);
  return head.slice(i + name.length + 3, end < 0 ? undefined : end).trim();
}

function newUp(): TUp {
  const u: TUp = {
    sock: net.connect({
      port: Number(upstream.port),
      host: upstream.hostname,
      noDelay: true,
      onread: copyingReads((d) => onUpData(u, d)),
    }),
    buf: Buffer.alloc(0),
    cbs: [],
  };
  // A connection the upstream closed (its keep-alive timeout, while this proxy served nothing) leaves the pool and
  // fails what was on it; reusing it would write into a destroyed socket and never answer those calls.
  u.sock.on('error', () => u.sock.destroy());
  u.sock.on('close', () => {
    open--;
    const at = idle.indexOf(u);
    if (at >= 0) idle.splice(at, 1);
    const cbs = u.cbs;
    u.cbs = [];
    for (const cb of cbs) cb(502, Buffer.alloc(0));
    // Someone waits for a connection: this one's place is free.
    const w = waiting.shift();
    if (w) {
      open++;
      w(newUp());
    }
  });
  return u;
}

function onUpData(u: TUp, d: Buffer): void {
  u.buf = u.buf.length ? Buffer.concat([u.buf, d]) : d;
  for (;;) {
    const h = u.buf.indexOf(CRLF2);
    if (h < 0) return;
    const head = u.buf.toString('latin1', 0, h);
    const len = Number(headValue(head, 'content-length') ?? 0);
    if (u.buf.length < h + 4 + len) return;
    const status = Number(head.slice(9, 12));
    const body = u.buf.subarray(h + 4, h + 4 + len);
    u.buf = u.buf.subarray(h + 4 + len);
    const cb = u.cbs.shift();
    if (!cb) {
      u.sock.destroy(); // an answer nobody asked for
      return;
    }
    if (u.cbs.length === 0) release(u);
    cb(status, body);
  }
}

let open = 0;
function acquire(fn: (u: TUp) => void): void {
  // A socket the upstream ended is unwritable at once; its 'close' (which takes it out of the pool) comes later.
  let u = idle.pop();
  while (u && !u.sock.writable) u = idle.pop();
  if (u) return fn(u);
  if (open < 128) {
    open++;
    return fn(newUp());
  }
  waiting.push(fn);
}
function release(u: TUp): void {
  if (!u.sock.writable) return;
  const w = waiting.shift();
  if (w) w(u);
  else idle.push(u);
}

/** Calls read this turn, sent up together at its end. */
let calls: { body: Buffer; cb: TCallback }[] = [];
function sendCalls(): void {
  const all = calls;
  calls = [];
  for (let i = 0; i < all.length; i += DEPTH) {
    const group = all.slice(i, i + DEPTH);
    acquire((u) => {
      let out = '';
      for (const c of group) {
        u.cbs.push(c.cb);
        out += upHead(c.body.length) + c.body.toString('latin1');
      }
      u.sock.write(out, 'latin1');
    });
  }
}

const upHead = (len: number) =>
  `POST / HTTP/1.1\r\nHost: ${upstream.host}\r\nContent-Type: application/json\r\nContent-Length: ${len}\r\n\r\n`;

// Each connection read into one reused buffer, as the gateway's raw front reads (apps/gateway/src/socket-reads.ts).
const server = net.createServer({ pauseOnConnect: true }, (accepted) => {
  const sock = adoptSocket(
    accepted,
    copyingReads((d) => onData(d)),
  );
  sock.setNoDelay(true);
  let buf: Buffer = Buffer.alloc(0);
  let busy = false;
  const pump = (): void => {
    if (busy) return;
    const h = buf.indexOf(CRLF2);
    if (h < 0) return;
    const head = buf.toString('latin1', 0, h);
    const len = Number(headValue(head, 'content-length') ?? 0);
    if (buf.length < h + 4 + len) return;
    const body = buf.subarray(h + 4, h + 4 + len);
    buf = buf.subarray(h + 4 + len);
    busy = true;
    if (calls.length === 0) setImmediate(sendCalls);
    calls.push({
      body,
      cb: (status, out) => {
        sock.write(
          `HTTP/1.1 ${status} OK\r\nContent-Type: application/json\r\nContent-Length: ${out.length}\r\n\r\n${out.toString('latin1')}`,
          'latin1',
        );
        busy = false;
        pump();
      },
    });
  };
  const onData = (d: Buffer): void => {
    buf = buf.length ? Buffer.concat([buf, d]) : d;
    pump();
  };
  sock.on('error', () => sock.destroy());
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT ${(server.address() as net.AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
