/**
 * Keep-alive HTTP/1.1 POSTs to a plain-http upstream on raw sockets (docs/decisions/gateway-design.md, "The raw
 * front"): the upstream half of the gateway's hot path without undici's dispatcher, which cost about a fifth of a
 * bare proxy's CPU per call. At most `connections` connections, the rest queued. Answers framed by Content-Length,
 * chunked transfer coding or the connection's close; 1xx answers skipped; a `Keep-Alive: timeout` hint honoured (an
 * idle connection is not reused within a second of it). https upstreams keep undici (upstreams.ts).
 *
 * Pipelining ("Upstream pipelining" in the same record): a post marked `quick` (a fast read, chosen by the caller)
 * may share a connection with other quick posts of the same event-loop turn, up to `pipelineDepth` of them, written
 * in one write and answered in order. Only posts of one turn share a connection (a connection still awaiting
 * answers takes no more), so a slow answer holds back only the calls that left with it. The posts behind an answer
 * that closes the connection (`Connection: close`, HTTP/1.0, framed by the close), which the upstream did not answer
 * and by HTTP/1.1 did not process, are sent again, and if that connection had served fewer than 16 answers,
 * pipelining to this upstream ends for good. A connection that fails or times out fails every post written on it
 * (with one error object: upstreams.ts counts it as one failure), as it fails the one post of an unpipelined one.
 */
import net from 'node:net';
import { copyingReads } from './socket-reads';

/** Called exactly once per post: an error (no answer), or the answer's status and whole body. */
export type TPostDone = (err: Error | null, status: number, body: Buffer) => void;

export type TRawClientOptions = {
  connections: number;
  /** No byte from the upstream for this long while an answer is awaited fails the post. */
  timeoutMs: number;
  connectTimeoutMs: number;
  /** An idle connection is closed after this (default 30 s, or the upstream's hint less a second). */
  keepAliveMs?: number;
  /** The most quick posts written together on one connection (default 1: no pipelining). */
  pipelineDepth?: number;
  /**
   * A `done` threw (callers must not). Every other post is still told; then this gets the error (default: rethrown
   * on the next tick, so it surfaces like any event handler's).
   */
  onCallbackError?: (err: unknown) => void;
};

/** The error of a post that got no answer; `code` ends in _TIMEOUT for a timeout (upstreams.ts errorKind). */
export class UpstreamSocketError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

const CRLF = Buffer.from('\r\n');
const CRLFCRLF = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);
const MAX_HEAD = 64 * 1024;

/** A post: written, or waiting for a connection; `quick` ones may share one. */
type TPost = { head: string; body: string | Buffer; done: TPostDone; quick: boolean };

export class RawHttpClient {
  private readonly idle: RawUpstreamConnection[] = [];
  private readonly queue: TPost[] = [];
  private queueHead = 0;
  private open = 0;
  private closing = false;
  private closed: (() => void) | undefined;
  /** The connection taking this turn's quick posts, written at setImmediate (or when full). */
  private filling: RawUpstreamConnection | undefined;
  private readonly flushFilling = (): void => {
    const f = this.filling;
    this.filling = undefined;
    f?.flush();
  };
  readonly keepAliveMs: number;
  /** The last answer head parsed (of any connection) and its parse: the next is most often the same text. */
  lastHead = '';
  lastParsed: TAnswerHead | undefined;
  /** 1 once the upstream has shown it closes connections after an answer. */
  pipelineDepth: number;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly hostHeader: string,
    readonly opts: TRawClientOptions,
  ) {
    this.keepAliveMs = opts.keepAliveMs ?? 30_000;
    this.pipelineDepth = Math.max(1, Math.floor(opts.pipelineDepth ?? 1));
  }

  /** POSTs a JSON body to `path`; `quick` lets it share a connection with other quick posts of this turn. */
  post(path: string, body: string | Buffer, done: TPostDone, quick = false): void {
    if (this.closing) {
      done(new UpstreamSocketError('client closed', 'UPSTREAM_CLOSED'), 0, EMPTY);
      return;
    }
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    const head = `POST ${path} HTTP/1.1\r\nhost: ${this.hostHeader}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\nconnection: keep-alive\r\n\r\n`;
    const p: TPost = { head, body, done, quick: quick && this.pipelineDepth > 1 };
    if (p.quick) {
      const f = this.filling;
      if (f !== undefined) {
        f.add(p);
        if (f.pending >= this.pipelineDepth) {
          this.filling = undefined;
          f.flush();
        }
        return;
      }
    }
    const conn = this.takeIdle() ?? this.openOne();
    if (!conn) {
      this.queue.push(p);
      return;
    }
    conn.add(p);
    if (!p.quick) return conn.flush();
    this.filling = conn;
    setImmediate(this.flushFilling);
  }

  private openOne(): RawUpstreamConnection | undefined {
    if (this.open >= this.opts.connections) return undefined;
    this.open++;
    return new RawUpstreamConnection(this, this.host, this.port);
  }

  private takeIdle(): RawUpstreamConnection | undefined {
    const now = Date.now();
    for (;;) {
      const c = this.idle.pop();
      if (!c) return undefined;
      if (c.reusableAt(now)) return c;
      c.destroy();
    }
  }

  /** Gives `conn` the oldest queued post, and the quick ones right behind it when it is quick; false if none. */
  private feed(conn: RawUpstreamConnection): boolean {
    const first = this.dequeue();
    if (!first) return false;
    conn.add(first);
    if (first.quick)
      while (conn.pending < this.pipelineDepth && this.queue[this.queueHead]?.quick === true)
        conn.add(this.dequeue() as TPost);
    conn.flush();
    return true;
  }

  /** A connection that finished its answers and may take more. */
  release(conn: RawUpstreamConnection): void {
    if (this.feed(conn)) return;
    if (this.closing) return conn.destroy();
    this.idle.push(conn);
  }

  /** The oldest queued post, if any (a moving head, so taking one is O(1)). */
  private dequeue(): TPost | undefined {
    if (this.queueHead >= this.queue.length) return undefined;
    const q = this.queue[this.queueHead] as TPost;
    this.queue[this.queueHead++] = undefined as unknown as TPost;
    if (this.queueHead === this.queue.length) {
      this.queue.length = 0;
      this.queueHead = 0;
    }
    return q;
  }

  /**
   * Posts a connection took and the upstream did not process: written behind an answer that closed the connection,
   * or never written (the connection went first). They go first, on idle connections now or on the next ones free.
   * `closing`: the upstream closes its connections after a few answers, so pipelining to it ends for good.
   */
  requeue(posts: TPost[], closing: boolean): void {
    if (closing) this.pipelineDepth = 1;
    if (this.closing)
      return this.failAll(posts, new UpstreamSocketError('client closed', 'UPSTREAM_CLOSED'));
    const rest = this.queue.slice(this.queueHead);
    this.queue.length = 0;
    this.queueHead = 0;
    for (const p of posts) this.queue.push(p);
    for (const p of rest) this.queue.push(p);
    while (this.queueHead < this.queue.length) {
      const c = this.takeIdle() ?? this.openOne();
      if (c === undefined) break;
      this.feed(c);
    }
  }

  /** Fails every post, each told even when a `done` before it throws. */
  failAll(posts: TPost[], err: Error): void {
    for (const p of posts)
      try {
        p.done(err, 0, EMPTY);
      } catch (e) {
        this.callbackThrew(e);
      }
  }

  callbackThrew(err: unknown): void {
    const report = this.opts.onCallbackError;
    if (report) report(err);
    else
      process.nextTick(() => {
        throw err;
      });
  }

  /** A connection that failed takes no more of this turn's posts. */
  unfill(conn: RawUpstreamConnection): void {
    if (this.filling === conn) this.filling = undefined;
  }

  /** A connection that is gone (closed, failed, or not reusable). */
  forget(conn: RawUpstreamConnection): void {
    const i = this.idle.indexOf(conn);
    if (i >= 0) this.idle.splice(i, 1);
    this.unfill(conn);
    this.open--;
    // Someone is waiting: open a connection for them.
    if (!this.closing && this.queueHead < this.queue.length) {
      this.feed(this.openOne() as RawUpstreamConnection);
      return;
    }
    if (this.closing && this.open === 0) this.closed?.();
  }

  /** Stops taking posts; queued ones fail, posts in flight finish; resolves when every connection is closed. */
  close(): Promise<void> {
    this.closing = true;
    const queued = this.queue.slice(this.queueHead);
    this.queue.length = 0;
    this.queueHead = 0;
    for (const c of this.idle.splice(0)) c.destroy();
    this.failAll(queued, new UpstreamSocketError('client closed', 'UPSTREAM_CLOSED'));
    if (this.open === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.closed = resolve;
    });
  }
}

/** A connection closed by its upstream before this many answers says the upstream closes them often. */
const FEW_ANSWERS = 16;

const enum Mode {
  Idle,
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkEnd,
  Trailers,
  UntilClose,
}

class RawUpstreamConnection {
  private readonly socket: net.Socket;
  private mode = Mode.Idle;
  /** Posts on this connection in order: the first `written` of them were written, and await answers. */
  private posts: TPost[] = [];
  private written = 0;
  private buf: Buffer = EMPTY;
  private status = 0;
  private remaining = 0;
  private parts: Buffer[] = [];
  private closeAfter = false;
  private reuseUntil = 0;
  private gone = false;
  /** Answers read on this connection. */
  private answered = 0;

  constructor(
    private readonly client: RawHttpClient,
    host: string,
    port: number,
  ) {
    this.socket = net.connect({
      host,
      port,
      noDelay: true,
      onread: copyingReads((chunk) => this.data(chunk)),
    });
    this.socket.setTimeout(client.opts.connectTimeoutMs);
    this.socket.on('connect', () => this.socket.setTimeout(client.opts.timeoutMs));
    this.socket.on('timeout', () =>
      this.fail(new UpstreamSocketError('upstream timed out', 'UPSTREAM_TIMEOUT')),
    );
    this.socket.on('error', (err: Error) => this.fail(err));
    this.socket.on('close', () => this.onClose());
  }

  reusableAt(now: number): boolean {
    return !this.gone && now < this.reuseUntil;
  }

  /** Posts on this connection, written or not. */
  get pending(): number {
    return this.posts.length;
  }

  add(p: TPost): void {
    this.posts.push(p);
  }

  /** Writes the posts added since the last flush, in one write. */
  flush(): void {
    const posts = this.posts;
    const from = this.written;
    // A destroyed socket's posts are settled by its close (those not written go on another connection).
    if (from === posts.length || this.socket.destroyed) return;
    this.written = posts.length;
    if (from === 0) {
      this.mode = Mode.Head;
      this.buf = EMPTY;
      this.parts = [];
      this.closeAfter = false;
      if (this.socket.connecting === false) this.socket.setTimeout(this.client.opts.timeoutMs);
    }
    let text = '';
    let strings = true;
    for (let i = from; i < posts.length; i++) {
      const p = posts[i] as TPost;
      if (typeof p.body !== 'string') {
        strings = false;
        break;
      }
      text += p.head + p.body;
    }
    if (strings) {
      this.socket.write(text);
      return;
    }
    this.socket.cork();
    for (let i = from; i < posts.length; i++) {
      const p = posts[i] as TPost;
      this.socket.write(p.head, 'latin1');
      this.socket.write(p.body);
    }
    this.socket.uncork();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private data(chunk: Buffer): void {
    if (this.mode === Mode.Idle) {
      // Bytes nobody asked for: the connection cannot be trusted any more.
      this.socket.destroy();
      return;
    }
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    try {
      this.parse();
    } catch (err) {
      this.fail(err as Error);
    }
  }

  private parse(): void {
    for (;;) {
      switch (this.mode) {
        case Mode.Head: {
          const end = this.buf.indexOf(CRLFCRLF);
          if (end < 0) {
            if (this.buf.length > MAX_HEAD)
              throw new UpstreamSocketError('answer head too large', 'UPSTREAM_PROTOCOL');
            return;
          }
          const head = this.buf.toString('latin1', 0, end);
          this.buf = this.buf.subarray(end + 4);
          this.readHead(head);
          break;
        }
        case Mode.Length: {
          if (this.buf.length < this.remaining) return;
          const body = this.buf.subarray(0, this.remaining);
          this.buf = this.buf.subarray(this.remaining);
          this.finish(body);
          break;
        }
        case Mode.ChunkSize: {
          const end = this.buf.indexOf(CRLF);
          if (end < 0) {
            if (this.buf.length > 1024)
              throw new UpstreamSocketError('bad chunk size', 'UPSTREAM_PROTOCOL');
            return;
          }
          const line = this.buf.toString('latin1', 0, end);
          const semi = line.indexOf(';');
          const hex = (semi < 0 ? line : line.slice(0, semi)).trim();
          if (!/^[0-9a-fA-F]{1,8}$/.test(hex))
            throw new UpstreamSocketError('bad chunk size', 'UPSTREAM_PROTOCOL');
          this.remaining = parseInt(hex, 16);
          this.buf = this.buf.subarray(end + 2);
          this.mode = this.remaining === 0 ? Mode.Trailers : Mode.ChunkData;
          break;
        }
        case Mode.ChunkData: {
          if (this.buf.length === 0) return;
          const n = Math.min(this.remaining, this.buf.length);
          this.parts.push(this.buf.subarray(0, n));
          this.buf = this.buf.subarray(n);
          this.remaining -= n;
          if (this.remaining > 0) return;
          this.mode = Mode.ChunkEnd;
          break;
        }
        case Mode.ChunkEnd: {
          if (this.buf.length < 2) return;
          if (this.buf[0] !== 13 || this.buf[1] !== 10)
            throw new UpstreamSocketError('bad chunk end', 'UPSTREAM_PROTOCOL');
          this.buf = this.buf.subarray(2);
          this.mode = Mode.ChunkSize;
          break;
        }
        case Mode.Trailers: {
          // Trailer fields (ignored), then an empty line.
          const end = this.buf.indexOf(CRLF);
          if (end < 0) return;
          this.buf = this.buf.subarray(end + 2);
          if (end > 0) break;
          const parts = this.parts;
          this.finish(parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts));
          break;
        }
        case Mode.UntilClose:
          if (this.buf.length > 0) this.parts.push(this.buf);
          this.buf = EMPTY;
          return;
        default:
          return;
      }
    }
  }

  private readHead(head: string): void {
    // An upstream sends the same head answer after answer, but for its Date: a head equal to the last one parsed
    // (a string compare) takes that parse.
    const client = this.client;
    let h = head === client.lastHead ? client.lastParsed : undefined;
    if (h === undefined) {
      h = parseAnswerHead(head);
      if (h === undefined) return; // 1xx: the real answer follows (mode stays Head)
      client.lastHead = head;
      client.lastParsed = h;
    }
    this.status = h.status;
    this.closeAfter = h.closeAfter;
    const keepAlive = client.keepAliveMs;
    this.reuseUntil =
      Date.now() + (h.keepAliveHint > 0 ? Math.min(keepAlive, h.keepAliveHint - 1000) : keepAlive);
    if (h.status === 204 || h.status === 304) {
      this.mode = Mode.Length;
      this.remaining = 0;
    } else if (h.chunked) this.mode = Mode.ChunkSize;
    else if (h.length !== undefined) {
      this.mode = Mode.Length;
      this.remaining = h.length;
    } else {
      this.mode = Mode.UntilClose;
      this.closeAfter = true;
    }
  }

  /** The first awaited post's answer is whole: the next answer follows, or the connection is free again. */
  private finish(body: Buffer): void {
    const p = this.posts.shift() as TPost;
    this.written--;
    this.answered++;
    this.parts = [];
    if (this.closeAfter) {
      // Nothing more will come on this connection: whatever was written behind this answer goes again.
      this.mode = Mode.Idle;
      this.buf = EMPTY;
      const rest = this.posts.splice(0);
      this.written = 0;
      this.socket.destroy();
      if (rest.length > 0) this.client.requeue(rest, this.answered < FEW_ANSWERS);
    } else if (this.written > 0) {
      this.mode = Mode.Head;
    } else {
      this.mode = Mode.Idle;
      const extra = this.buf.length > 0;
      this.buf = EMPTY;
      if (extra) this.socket.destroy();
      else {
        this.socket.setTimeout(this.client.keepAliveMs);
        this.client.release(this);
      }
    }
    // The answers behind this one are still read and delivered if this callback throws.
    try {
      p.done(null, this.status, body);
    } catch (err) {
      this.client.callbackThrew(err);
    }
  }

  /** Every post written on this connection fails with `err`; those not written yet go on another. */
  private fail(err: Error): void {
    this.mode = Mode.Idle;
    const posts = this.posts.splice(0);
    const unwritten = posts.splice(this.written);
    this.written = 0;
    this.socket.destroy();
    this.client.unfill(this);
    if (unwritten.length > 0) this.client.requeue(unwritten, false);
    this.client.failAll(posts, err);
  }

  private onClose(): void {
    if (this.gone) return;
    this.gone = true;
    if (this.written > 0 && this.mode === Mode.UntilClose) {
      const parts = this.parts;
      const p = this.posts.shift() as TPost;
      const rest = this.posts.splice(0);
      this.written = 0;
      this.mode = Mode.Idle;
      // Requeued first, so they go before anything queued and forget() opens a connection for them.
      if (rest.length > 0) this.client.requeue(rest, true);
      this.client.forget(this);
      try {
        p.done(null, this.status, parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts));
      } catch (err) {
        this.client.callbackThrew(err);
      }
      return;
    }
    const posts = this.posts.splice(0);
    const unwritten = posts.splice(this.written);
    this.written = 0;
    this.mode = Mode.Idle;
    if (unwritten.length > 0) this.client.requeue(unwritten, false);
    this.client.forget(this);
    this.client.failAll(
      posts,
      new UpstreamSocketError('upstream closed the connection', 'UPSTREAM_SOCKET'),
    );
  }
}

/** What frames an answer, read from its head (status line and header lines, without the blank line). */
export type TAnswerHead = {
  status: number;
  /** The connection closes after this answer (HTTP/1.0 without keep-alive, or `Connection: close`). */
  closeAfter: boolean;
  length: number | undefined;
  chunked: boolean;
  /** `Keep-Alive: timeout=` in ms (0: none). */
  keepAliveHint: number;
};

/** Parses an answer head; undefined for a 1xx (the real answer follows). Throws on a malformed head. */
export function parseAnswerHead(head: string): TAnswerHead | undefined {
  if (!head.startsWith('HTTP/1.'))
    throw new UpstreamSocketError('not an HTTP answer', 'UPSTREAM_PROTOCOL');
  const status = Number(head.slice(9, 12));
  if (!(status >= 100 && status <= 999))
    throw new UpstreamSocketError('bad status', 'UPSTREAM_PROTOCOL');
  if (status < 200) return undefined;
  let closeAfter = head.charCodeAt(7) === 48; // HTTP/1.0: closed after, unless it says keep-alive
  let length: number | undefined;
  let chunked = false;
  let keepAliveHint = 0;
  // One lower-cased copy of the head (latin1: the same length), sliced per line; a value is cut only for the
  // four names read.
  const lower = head.toLowerCase();
  for (let pos = head.indexOf('\r\n'); pos >= 0;) {
    const start = pos + 2;
    const end = head.indexOf('\r\n', start);
    const stop = end < 0 ? head.length : end;
    pos = end;
    const colon = head.indexOf(':', start);
    if (colon <= start || colon >= stop) continue;
    const name = lower.slice(start, colon).trim();
    if (
      name !== 'content-length' &&
      name !== 'transfer-encoding' &&
      name !== 'connection' &&
      name !== 'keep-alive'
    )
      continue;
    const value = lower.slice(colon + 1, stop).trim();
    if (name === 'content-length') {
      if (!/^\d+$/.test(value) || (length !== undefined && length !== Number(value)))
        throw new UpstreamSocketError('bad content-length', 'UPSTREAM_PROTOCOL');
      length = Number(value);
    } else if (name === 'transfer-encoding') chunked = value.endsWith('chunked');
    else if (name === 'connection') {
      if (value.includes('close')) closeAfter = true;
      else if (value.includes('keep-alive')) closeAfter = false;
    } else if (name === 'keep-alive') {
      const m = /timeout=(\d+)/.exec(value);
      if (m) keepAliveHint = Number(m[1]) * 1000;
    }
  }
  return { status, closeAfter, length, chunked, keepAliveHint };
}
