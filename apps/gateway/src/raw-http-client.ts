/**
 * Keep-alive HTTP/1.1 POSTs to a plain-http upstream on raw sockets (docs/decisions/gateway-design.md, "The raw
 * front"): the upstream half of the gateway's hot path without undici's dispatcher, which cost about a fifth of a
 * bare proxy's CPU per call. One request per connection at a time (no pipelining), at most `connections`
 * connections, the rest queued. Answers framed by Content-Length, chunked transfer coding or the connection's
 * close; 1xx answers skipped; a `Keep-Alive: timeout` hint honoured (an idle connection is not reused within a
 * second of it). https upstreams keep undici (upstreams.ts).
 */
import net from 'node:net';

/** Called exactly once per post: an error (no answer), or the answer's status and whole body. */
export type TPostDone = (err: Error | null, status: number, body: Buffer) => void;

export type TRawClientOptions = {
  connections: number;
  /** No byte from the upstream for this long while an answer is awaited fails the post. */
  timeoutMs: number;
  connectTimeoutMs: number;
  /** An idle connection is closed after this (default 30 s, or the upstream's hint less a second). */
  keepAliveMs?: number;
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

type TQueued = { head: string; body: string | Buffer; done: TPostDone };

export class RawHttpClient {
  private readonly idle: RawUpstreamConnection[] = [];
  private readonly queue: TQueued[] = [];
  private queueHead = 0;
  private open = 0;
  private closing = false;
  private closed: (() => void) | undefined;
  readonly keepAliveMs: number;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly hostHeader: string,
    readonly opts: TRawClientOptions,
  ) {
    this.keepAliveMs = opts.keepAliveMs ?? 30_000;
  }

  /** POSTs a JSON body to `path`. */
  post(path: string, body: string | Buffer, done: TPostDone): void {
    if (this.closing) {
      done(new UpstreamSocketError('client closed', 'UPSTREAM_CLOSED'), 0, EMPTY);
      return;
    }
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    const head = `POST ${path} HTTP/1.1\r\nhost: ${this.hostHeader}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\nconnection: keep-alive\r\n\r\n`;
    const conn = this.takeIdle();
    if (conn) return conn.send(head, body, done);
    if (this.open < this.opts.connections) {
      this.open++;
      return new RawUpstreamConnection(this, this.host, this.port).send(head, body, done);
    }
    this.queue.push({ head, body, done });
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

  /** A connection that finished its answer and may take another. */
  release(conn: RawUpstreamConnection): void {
    const q = this.dequeue();
    if (q) return conn.send(q.head, q.body, q.done);
    if (this.closing) return conn.destroy();
    this.idle.push(conn);
  }

  /** The oldest queued post, if any (a moving head, so taking one is O(1)). */
  private dequeue(): TQueued | undefined {
    if (this.queueHead >= this.queue.length) return undefined;
    const q = this.queue[this.queueHead] as TQueued;
    this.queue[this.queueHead++] = undefined as unknown as TQueued;
    if (this.queueHead === this.queue.length) {
      this.queue.length = 0;
      this.queueHead = 0;
    }
    return q;
  }

  /** A connection that is gone (closed, failed, or not reusable). */
  forget(conn: RawUpstreamConnection): void {
    const i = this.idle.indexOf(conn);
    if (i >= 0) this.idle.splice(i, 1);
    this.open--;
    // Someone is waiting: open a connection for them.
    const q = this.closing ? undefined : this.dequeue();
    if (q) {
      this.open++;
      new RawUpstreamConnection(this, this.host, this.port).send(q.head, q.body, q.done);
      return;
    }
    if (this.closing && this.open === 0) this.closed?.();
  }

  /** Stops taking posts; queued ones fail, posts in flight finish; resolves when every connection is closed. */
  close(): Promise<void> {
    this.closing = true;
    for (let i = this.queueHead; i < this.queue.length; i++)
      this.queue[i]?.done(new UpstreamSocketError('client closed', 'UPSTREAM_CLOSED'), 0, EMPTY);
    this.queue.length = 0;
    this.queueHead = 0;
    for (const c of this.idle.splice(0)) c.destroy();
    if (this.open === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.closed = resolve;
    });
  }
}

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
  private done: TPostDone | undefined;
  private buf: Buffer = EMPTY;
  private status = 0;
  private remaining = 0;
  private parts: Buffer[] = [];
  private closeAfter = false;
  private reuseUntil = 0;
  private gone = false;

  constructor(
    private readonly client: RawHttpClient,
    host: string,
    port: number,
  ) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.setTimeout(client.opts.connectTimeoutMs);
    this.socket.on('connect', () => this.socket.setTimeout(client.opts.timeoutMs));
    this.socket.on('data', (chunk: Buffer) => this.data(chunk));
    this.socket.on('timeout', () =>
      this.fail(new UpstreamSocketError('upstream timed out', 'UPSTREAM_TIMEOUT')),
    );
    this.socket.on('error', (err: Error) => this.fail(err));
    this.socket.on('close', () => this.onClose());
  }

  reusableAt(now: number): boolean {
    return !this.gone && now < this.reuseUntil;
  }

  send(head: string, body: string | Buffer, done: TPostDone): void {
    this.done = done;
    this.mode = Mode.Head;
    this.buf = EMPTY;
    this.parts = [];
    this.closeAfter = false;
    if (this.socket.connecting === false) this.socket.setTimeout(this.client.opts.timeoutMs);
    if (typeof body === 'string') this.socket.write(head + body);
    else {
      this.socket.cork();
      this.socket.write(head, 'latin1');
      this.socket.write(body);
      this.socket.uncork();
    }
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
          return this.finish(body);
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
          return this.finish(parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts));
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
    if (!head.startsWith('HTTP/1.'))
      throw new UpstreamSocketError('not an HTTP answer', 'UPSTREAM_PROTOCOL');
    const status = Number(head.slice(9, 12));
    if (!(status >= 100 && status <= 999))
      throw new UpstreamSocketError('bad status', 'UPSTREAM_PROTOCOL');
    if (status < 200) return; // 1xx: the real answer follows (mode stays Head)
    this.status = status;
    this.closeAfter = head.charCodeAt(7) === 48; // HTTP/1.0: closed after, unless it says keep-alive
    let length: number | undefined;
    let chunked = false;
    let keepAliveHint = 0;
    for (let pos = head.indexOf('\r\n'); pos >= 0;) {
      const start = pos + 2;
      const end = head.indexOf('\r\n', start);
      const line = end < 0 ? head.slice(start) : head.slice(start, end);
      pos = end;
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (name === 'content-length') {
        if (!/^\d+$/.test(value) || (length !== undefined && length !== Number(value)))
          throw new UpstreamSocketError('bad content-length', 'UPSTREAM_PROTOCOL');
        length = Number(value);
      } else if (name === 'transfer-encoding') chunked = value.endsWith('chunked');
      else if (name === 'connection') {
        if (value.includes('close')) this.closeAfter = true;
        else if (value.includes('keep-alive')) this.closeAfter = false;
      } else if (name === 'keep-alive') {
        const m = /timeout=(\d+)/.exec(value);
        if (m) keepAliveHint = Number(m[1]) * 1000;
      }
    }
    const keepAlive = this.client.keepAliveMs;
    this.reuseUntil =
      Date.now() + (keepAliveHint > 0 ? Math.min(keepAlive, keepAliveHint - 1000) : keepAlive);
    if (status === 204 || status === 304) {
      this.mode = Mode.Length;
      this.remaining = 0;
    } else if (chunked) this.mode = Mode.ChunkSize;
    else if (length !== undefined) {
      this.mode = Mode.Length;
      this.remaining = length;
    } else {
      this.mode = Mode.UntilClose;
      this.closeAfter = true;
    }
  }

  private finish(body: Buffer): void {
    const done = this.done;
    this.done = undefined;
    this.mode = Mode.Idle;
    const extra = this.buf.length > 0;
    this.buf = EMPTY;
    this.parts = [];
    if (this.closeAfter || extra) this.socket.destroy();
    else {
      this.socket.setTimeout(this.client.keepAliveMs);
      this.client.release(this);
    }
    done?.(null, this.status, body);
  }

  private fail(err: Error): void {
    const done = this.done;
    this.done = undefined;
    this.mode = Mode.Idle;
    this.socket.destroy();
    done?.(err, 0, EMPTY);
  }

  private onClose(): void {
    if (this.gone) return;
    this.gone = true;
    if (this.done && this.mode === Mode.UntilClose) {
      const parts = this.parts;
      this.closeAfter = true;
      const done = this.done;
      this.done = undefined;
      this.mode = Mode.Idle;
      this.client.forget(this);
      done(null, this.status, parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts));
      return;
    }
    const done = this.done;
    this.done = undefined;
    this.client.forget(this);
    done?.(new UpstreamSocketError('upstream closed the connection', 'UPSTREAM_SOCKET'), 0, EMPTY);
  }
}
