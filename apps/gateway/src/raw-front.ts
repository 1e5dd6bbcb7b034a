/**
 * The raw front (docs/decisions/gateway-design.md, "The raw front"): the gateway's hot path, a plain POST of
 * JSON-RPC to a gateway path, read straight off the socket and answered on it, without node:http's request and
 * response objects, which cost about a third of a bare Node proxy's CPU per call (bench:gateway).
 *
 * It takes only requests it can frame beyond doubt: HTTP/1.1 POST, one Content-Length of at most `maxBodyBytes`,
 * no Transfer-Encoding, Content-Encoding, Expect or Upgrade, no duplicate of a header it reads, a Host, and only
 * visible ASCII in the request line and header lines. The first request that is anything else (a GET, a gzip body,
 * a WebSocket upgrade, a malformed head, a head over `maxHeadBytes`) is handed, with the rest of the connection
 * and every byte already read, to node:http, which parses it from its first byte as if the front were not there.
 * So the front never refuses a request node:http would take, and never reads one node:http would frame otherwise.
 */
import type http from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { TOut } from './http-handler';
import { adoptSocket, copyingReads } from './socket-reads';

export type TRawRequest = {
  /** The request target as sent (like IncomingMessage.url). */
  url: string;
  origin: string | undefined;
  forwardedFor: string | undefined;
  remoteAddress: string | undefined;
  body: Buffer;
  /** performance.now() when the request was read. */
  started: number;
};

export type TRawFrontOptions<T> = {
  /** The route of a POST to this target if it is the front's (a gateway path); else it goes to node:http. */
  route: (url: string) => T | undefined;
  serve: (out: TOut, req: TRawRequest, route: T) => void;
  /** Bodies up to this size are read by the front; bigger ones go to node:http (default 64 KiB). */
  maxBodyBytes?: number;
  /** A head not complete within this many bytes goes to node:http (its own default limit, 16 KiB). */
  maxHeadBytes?: number;
  /** An idle keep-alive connection is closed after this (node:http: keepAliveTimeout). */
  keepAliveTimeoutMs: number;
  /** A request not fully read this long after its first byte closes the connection (node:http: headersTimeout). */
  requestTimeoutMs?: number;
  /**
   * When set, the answers made in one event-loop turn are written together at its end (setImmediate), after one
   * call of this (the gateway writes the usage journal's lines of those calls in it: one write for all of them).
   */
  beforeAnswers?: () => void;
};

export type TRawFront = {
  /** Stops taking new requests: idle connections close now, busy ones after their answer. */
  closeIdle: () => void;
  /** Cuts every connection the front holds. */
  closeAll: () => void;
  /** Connections the front holds, and how many it handed to node:http (tests, diagnostics). */
  stats: () => { connections: number; handedOver: number };
};

/** Answers up to this size (the body, a Buffer) are written as one latin1 string; bigger ones head and body apart. */
const ONE_WRITE_BYTES = 16 * 1024;
/** Heads up to this size are kept for the next request's compare; a bigger one is not held while idle. */
const CACHED_HEAD_CHARS = 2048;
/** Pipelined bytes held while an answer is pending before the socket is paused. */
const MAX_BUFFERED = 1024 * 1024;
const CRLFCRLF = Buffer.from('\r\n\r\n');
/** Header lines: token, colon, visible ASCII, space or tab, each line ended by CRLF; no folding, no bare CR or LF. */
const HEADER_LINES = /^(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e]*\r\n)*$/;
const TARGET = /^\/[\x21-\x7e]*$/;
const DIGITS = /^\d{1,15}$/;

type THeaderFields = {
  contentLength: number;
  origin: string | undefined;
  forwardedFor: string | undefined;
  acceptEncoding: string | undefined;
  close: boolean;
};
type THead = THeaderFields & { url: string };

/** The head (request line and header lines, each ended by CRLF) if the front takes it, else undefined. */
export function parseHead(head: string, maxBodyBytes: number): THead | undefined {
  const url = requestTarget(head);
  if (url === undefined) return undefined;
  const fields = parseHeaderLines(head.slice(head.indexOf('\r\n') + 2), maxBodyBytes);
  return fields && { url, ...fields };
}

/** The target of a head's request line if it is `POST /… HTTP/1.1` with a target the front takes. */
function requestTarget(head: string): string | undefined {
  if (!head.startsWith('POST /')) return undefined;
  const lineEnd = head.indexOf('\r\n');
  if (!head.endsWith(' HTTP/1.1', lineEnd)) return undefined;
  const url = head.slice(5, lineEnd - 9);
  return TARGET.test(url) ? url : undefined;
}

/** The header lines (each ended by CRLF) if the front takes them, else undefined. */
function parseHeaderLines(lines: string, maxBodyBytes: number): THeaderFields | undefined {
  if (!HEADER_LINES.test(lines)) return undefined;
  let contentLength: string | undefined;
  let origin: string | undefined;
  let forwardedFor: string | undefined;
  let acceptEncoding: string | undefined;
  let connection: string | undefined;
  let host = false;
  // Names are matched in a lower-cased copy (one call for the head, not one per line); values are read from the
  // original. HEADER_LINES leaves only spaces and tabs as white space, so trim() takes just those.
  const lower = lines.toLowerCase();
  for (let pos = 0; pos < lines.length;) {
    const end = lines.indexOf('\r\n', pos);
    const colon = lines.indexOf(':', pos);
    const name = lower.slice(pos, colon);
    const value = lines.slice(colon + 1, end).trim();
    pos = end + 2;
    switch (name) {
      case 'content-length':
        if (contentLength !== undefined) return undefined;
        contentLength = value;
        break;
      case 'origin':
        if (origin !== undefined) return undefined;
        origin = value;
        break;
      case 'x-forwarded-for':
        if (forwardedFor !== undefined) return undefined;
        forwardedFor = value;
        break;
      case 'accept-encoding':
        if (acceptEncoding !== undefined) return undefined;
        acceptEncoding = value;
        break;
      case 'connection':
        if (connection !== undefined) return undefined;
        connection = value.toLowerCase();
        break;
      case 'host':
        if (host) return undefined;
        host = true;
        break;
      case 'content-encoding':
        if (value.toLowerCase() !== 'identity') return undefined;
        break;
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
        return undefined;
    }
  }
  if (!host || contentLength === undefined || !DIGITS.test(contentLength)) return undefined;
  const length = Number(contentLength);
  if (length > maxBodyBytes) return undefined;
  let close = false;
  if (connection !== undefined)
    for (const token of connection.split(',')) {
      const t = token.trim();
      if (t === 'upgrade') return undefined;
      if (t === 'close') close = true;
    }
  return { contentLength: length, origin, forwardedFor, acceptEncoding, close };
}

/** The Date header's value, made once per second (as node:http does). */
let dateText = '';
let dateSecond = -1;
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/** Takes over the 'connection' event of a node:http server (not yet listening). */
export function attachRawFront<T>(server: http.Server, opts: TRawFrontOptions<T>): TRawFront {
  // node:http hands a socket to its parser in its own 'connection' listener; emitting 'connection' with a socket
  // is the documented way to give it one. The front calls those listeners for the sockets it hands over.
  const toHttp = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const front: TFrontState<T> = {
    conns: new Set(),
    closing: false,
    handedOver: 0,
    maxBodyBytes: opts.maxBodyBytes ?? 64 * 1024,
    maxHeadBytes: opts.maxHeadBytes ?? 16 * 1024,
    requestTimeoutMs: opts.requestTimeoutMs ?? 60_000,
    beforeAnswers: opts.beforeAnswers,
    tick: 0,
    idleTicks: 0,
    outbox: [],
    flushOutbox: () => {
      const box = front.outbox;
      front.outbox = [];
      try {
        front.beforeAnswers?.();
      } finally {
        for (const a of box) a.conn.write(a.status, a.headers, a.body);
      }
    },
    route: opts.route,
    serve: opts.serve,
    handOver: (socket, rest) => {
      front.handedOver++;
      if (rest) socket.unshift(rest);
      for (const l of toHttp) l.call(server, socket);
    },
  };
  // Accepted paused, so that the front can read each connection into one reused buffer (socket-reads.ts).
  (server as http.Server & { pauseOnConnect: boolean }).pauseOnConnect = true;
  server.on('connection', (accepted: Socket) => {
    // The first read comes in a later turn of the event loop, when `conn` is set.
    const reads = copyingReads((chunk) => conn.read(chunk));
    const conn = new RawConnection<T>(front, adoptSocket(accepted, reads));
    front.conns.add(conn);
  });
  // Idle and slow connections are found by one sweep, not a socket timeout each: a socket's timeout is re-armed
  // on every read and write (a timer-list update per call), the sweep costs a field write per call. A connection
  // is stamped with the sweep's tick count; a timer never fires early, so n ticks after a stamp at least
  // (n - 1) periods have passed, and an idle connection is closed after ceil(timeout / period) + 1 ticks: never
  // before its timeout, at most two periods after. A keep-alive timeout of 0 means none (as in node:http).
  const keepAlive = opts.keepAliveTimeoutMs;
  const sweepMs = Math.max(
    10,
    Math.min(1000, Math.floor((keepAlive > 0 ? keepAlive : front.requestTimeoutMs) / 4)),
  );
  front.idleTicks = keepAlive > 0 ? Math.ceil(keepAlive / sweepMs) + 1 : Infinity;
  const sweep = setInterval(() => {
    front.tick++;
    const now = Date.now();
    for (const c of front.conns) c.sweep(now);
  }, sweepMs);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
  return {
    closeIdle: () => {
      front.closing = true;
      for (const c of front.conns) c.closeIfIdle();
    },
    closeAll: () => {
      for (const c of front.conns) c.socket.destroy();
    },
    stats: () => ({ connections: front.conns.size, handedOver: front.handedOver }),
  };
}

type TFrontState<T> = {
  conns: Set<RawConnection<T>>;
  closing: boolean;
  handedOver: number;
  maxBodyBytes: number;
  maxHeadBytes: number;
  requestTimeoutMs: number;
  /** Sweeps so far: a connection's last activity is stamped with it. */
  tick: number;
  /** Sweeps after which an idle connection is closed (Infinity: never). */
  idleTicks: number;
  route: (url: string) => T | undefined;
  serve: (out: TOut, req: TRawRequest, route: T) => void;
  handOver: (socket: Socket, rest: Buffer | undefined) => void;
  beforeAnswers: (() => void) | undefined;
  /** Answers waiting for the end of this event-loop turn (only with beforeAnswers). */
  outbox: TQueuedAnswer[];
  flushOutbox: () => void;
};

type TQueuedAnswer = {
  conn: RawConnection<unknown>;
  status: number;
  headers: Record<string, string | number>;
  body: Buffer | string | undefined;
};

class RawConnection<T> {
  /** Bytes read and not yet taken by a request. */
  private buf: Buffer | undefined;
  /** A request is being answered; the next waits (answers go out in order). */
  private busy = false;
  private pumping = false;
  private closeAfter = false;
  /** The client ended its side: what it sent is answered, then the connection is closed. */
  private peerEnded = false;
  /** Date.now() at the first byte of the request being read (0: none). */
  private readingSince = 0;
  /** The last head taken, its header lines and their parse, its target and the target's route. */
  private lastHeadText = '';
  private lastLines = '';
  private lastFields: THeaderFields | undefined;
  private lastUrl: string | undefined;
  private lastRoute: T | undefined;
  /** front.tick at the last read or answer. */
  private lastActive: number;
  /** The connection went to node:http: bytes read into the front's buffer go to the socket's stream for it. */
  private handedOver = false;
  private readonly onData = (chunk: Buffer) => this.data(chunk);
  private readonly onClose = () => this.front.conns.delete(this);
  private readonly onError = () => this.socket.destroy();
  private readonly onDrain = () => this.next();
  private readonly onEnd = () => {
    this.peerEnded = true;
    if (!this.busy) this.next();
  };

  constructor(
    private readonly front: TFrontState<T>,
    readonly socket: Socket,
  ) {
    this.lastActive = front.tick;
    socket.on('data', this.onData);
    socket.on('close', this.onClose);
    socket.on('error', this.onError);
    socket.on('end', this.onEnd);
  }

  /**
   * Called by the front's sweep: closes a connection idle past the keep-alive timeout, and one whose next request
   * is still being read past the request timeout. A connection waiting for its answer is neither: what it has read
   * meanwhile is timed from that answer on.
   */
  sweep(now: number): void {
    if (this.socket.destroyed || this.busy) return;
    if (this.readingSince !== 0 && now - this.readingSince > this.front.requestTimeoutMs)
      this.socket.destroy();
    else if (this.front.tick - this.lastActive >= this.front.idleTicks) this.socket.destroy();
  }

  closeIfIdle(): void {
    if (!this.busy && !this.buf) this.socket.end();
  }

  /**
   * Bytes read into the reused buffer (a copy); a socket that could not be adopted gives them as 'data'. Once the
   * connection is node:http's (an upgrade, say) they go into the socket's stream, and a full stream stops reading
   * until its reader resumes it, as with 'data' reads: else a client could make the gateway buffer without end
   * behind a socket nobody reads (found by review: 300 MB in 4 s behind a refused upgrade).
   */
  read(chunk: Buffer): boolean {
    if (this.handedOver) return this.socket.push(chunk);
    this.data(chunk);
    return true;
  }

  private data(chunk: Buffer): void {
    this.buf = this.buf ? Buffer.concat([this.buf, chunk]) : chunk;
    this.lastActive = this.front.tick;
    if (this.readingSince === 0) this.readingSince = Date.now();
    if (!this.busy) this.pump();
    else if (this.buf.length > MAX_BUFFERED) this.socket.pause();
  }

  /** Takes the requests read so far, one at a time. */
  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (!this.busy && this.buf && !this.socket.destroyed) {
        if (this.front.closing) {
          // Stopping: what was read and not begun is dropped, as node:http drops it on close.
          this.socket.end();
          return;
        }
        const buf = this.buf;
        const headEnd = buf.indexOf(CRLFCRLF);
        if (headEnd < 0) {
          if (buf.length > this.front.maxHeadBytes) return this.handOver();
          return this.checkDeadline();
        }
        if (headEnd + 2 > this.front.maxHeadBytes) return this.handOver();
        // A keep-alive client most often sends the same head again, or the same header lines to another path: a
        // head, header lines or target equal to the last one taken (a string compare) takes its parse or route.
        const text = buf.toString('latin1', 0, headEnd + 2);
        let url = this.lastUrl;
        let head = this.lastFields;
        let route = this.lastRoute;
        if (
          text !== this.lastHeadText ||
          url === undefined ||
          head === undefined ||
          route === undefined
        ) {
          const lines = text.slice(text.indexOf('\r\n') + 2);
          if (lines !== this.lastLines || head === undefined) {
            head = parseHeaderLines(lines, this.front.maxBodyBytes);
            this.lastLines = lines;
            this.lastFields = head;
          }
          const target = requestTarget(text);
          if (target !== url || route === undefined) {
            route = target === undefined ? undefined : this.front.route(target);
            this.lastRoute = route;
          }
          url = target;
          this.lastUrl = target;
          if (url === undefined || head === undefined || route === undefined)
            return this.handOver();
          this.lastHeadText = text;
          // What is kept holds the head's text (slices share it): a long head is not kept for the connection's life.
          if (text.length > CACHED_HEAD_CHARS) this.forgetHead();
        }
        const total = headEnd + 4 + head.contentLength;
        if (buf.length < total) return this.checkDeadline();
        const body = buf.subarray(headEnd + 4, total);
        this.buf = total < buf.length ? buf.subarray(total) : undefined;
        this.readingSince = this.buf ? Date.now() : 0;
        this.busy = true;
        this.closeAfter = head.close;
        const out = new RawOut(this as RawConnection<unknown>, head.acceptEncoding);
        this.front.serve(
          out,
          {
            url,
            origin: head.origin,
            forwardedFor: head.forwardedFor,
            remoteAddress: this.socket.remoteAddress,
            body,
            started: performance.now(),
          },
          route,
        );
      }
    } finally {
      this.pumping = false;
    }
  }

  private forgetHead(): void {
    this.lastHeadText = '';
    this.lastLines = '';
    this.lastFields = undefined;
    this.lastUrl = undefined;
    this.lastRoute = undefined;
  }

  private checkDeadline(): void {
    if (Date.now() - this.readingSince > this.front.requestTimeoutMs) this.socket.destroy();
  }

  /** The rest of this connection, and every byte read and not answered, goes to node:http. */
  private handOver(): void {
    const s = this.socket;
    s.removeListener('data', this.onData);
    s.removeListener('close', this.onClose);
    s.removeListener('error', this.onError);
    s.removeListener('drain', this.onDrain);
    s.removeListener('end', this.onEnd);
    this.front.conns.delete(this);
    this.handedOver = true;
    const rest = this.buf;
    this.buf = undefined;
    this.front.handOver(s, rest);
  }

  /** One answer (called once per request by its RawOut): written now, or at the end of the turn. */
  answer(status: number, headers: Record<string, string | number>, body?: Buffer | string): void {
    const front = this.front;
    if (!front.beforeAnswers) return this.write(status, headers, body);
    if (front.outbox.length === 0) setImmediate(front.flushOutbox);
    front.outbox.push({ conn: this as RawConnection<unknown>, status, headers, body });
  }

  /** Writes one answer. */
  write(status: number, headers: Record<string, string | number>, body?: Buffer | string): void {
    const s = this.socket;
    if (!s.destroyed && s.writable) {
      let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n`;
      for (const name in headers)
        if (name !== 'content-length') head += `${name}: ${headers[name]}\r\n`;
      const length =
        body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
      if (status !== 204 && status !== 304) head += `content-length: ${length}\r\n`;
      head += `date: ${httpDate()}\r\n`;
      const close = this.closeAfter || this.front.closing;
      head += close
        ? 'connection: close\r\n\r\n'
        : 'connection: keep-alive\r\nkeep-alive: timeout=65\r\n\r\n';
      if (body === undefined || length === 0) s.write(head, 'latin1');
      else if (typeof body === 'string') s.write(head + body, 'utf8');
      else if (length <= ONE_WRITE_BYTES) {
        // One string, one write: a latin1 string holds any bytes unchanged, and Node writes a short one from
        // the stack, where head and body as two chunks cost a writev and a heap copy of each.
        s.write(head + body.toString('latin1'), 'latin1');
      } else {
        s.cork();
        s.write(head, 'latin1');
        s.write(body);
        s.uncork();
      }
      if (close) {
        // Nothing after a `Connection: close` request (or once stopping) is read.
        s.end();
        this.buf = undefined;
      }
    }
    this.busy = false;
    this.lastActive = this.front.tick;
    // A next request read while this one was answered is timed from now.
    if (this.buf) this.readingSince = Date.now();
    if (s.isPaused() && !s.destroyed) s.resume();
    if (this.buf && s.writableNeedDrain) s.once('drain', this.onDrain);
    else if (!this.pumping) this.next();
  }

  /** Takes the next request if one was read; closes the connection once a client that ended it has its answers. */
  private next(): void {
    if (this.buf) this.pump();
    if (this.peerEnded && !this.busy && !this.socket.destroyed) this.socket.end();
  }
}

/** The TOut of one request on the raw front. */
class RawOut implements TOut {
  sent = false;
  constructor(
    private readonly conn: RawConnection<unknown>,
    readonly acceptEncoding: string | undefined,
  ) {}

  reply(status: number, headers: Record<string, string | number>, body?: Buffer | string): void {
    if (this.sent) return;
    this.sent = true;
    this.conn.answer(status, headers, body);
  }

  destroy(): void {
    this.sent = true;
    this.conn.socket.destroy();
  }
}
