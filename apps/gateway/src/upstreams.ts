/**
 * Upstream groups: keep-alive pools (raw sockets for http upstreams, undici for https), block-height health
 * checks, failover on error and timeout.
 */
import { Pool } from 'undici';
import type { TPostDone } from './raw-http-client';
import { RawHttpClient } from './raw-http-client';
import type { TChain } from './chains';
import type { TUpstreamErrorKind, TUpstreamMetrics } from './metrics';
import { DEDICATED_CHAIN_LABEL, upstreamLabel } from './metrics';
import type { TBundler } from './types';
import { BUNDLERS } from './types';

export type TUpstream = {
  url: string;
  /** host:port, the only part of the URL that may be a metric label (its path or query can hold a provider key) */
  label: string;
  client: TUpstreamClient;
  path: string;
  healthy: boolean;
  head: number;
  failures: number;
  /**
   * The error of the last failed attempt: the posts pipelined on one connection fail with one error object, and
   * that counts as one failure, as the one post of an unpipelined connection would.
   */
  lastError?: Error;
  /** a chain's upstream, polled by the health checks (a dedicated node's is not) */
  polled: boolean;
  /** dedicated-node routes using it */
  users: number;
};

export type TUpstreamReply = { status: number; body: Buffer; upstream: string };

export type TUpstreamOptions = {
  timeoutMs: number;
  /** An upstream more than this many blocks behind the best one is skipped while another one is in sync. */
  maxLagBlocks: number;
  connectionsPerUpstream: number;
  /**
   * The most quick calls written together on one connection to a plain-http upstream (HTTP/1.1 pipelining,
   * raw-http-client.ts); 1 sends one call per connection at a time.
   */
  pipelineDepth?: number;
  /** Where attempts are recorded (latency, errors); none in unit tests. */
  metrics?: TUpstreamMetrics;
};

const JSON_HEADERS = { 'content-type': 'application/json' };

/** Where an upstream's POSTs go: raw-http-client.ts for http upstreams, undici's Pool for https ones. */
export type TUpstreamClient = {
  /** `quick`: a fast read that may share a connection with others (raw client only). */
  post(path: string, body: string | Buffer, done: TPostDone, quick?: boolean): void;
  close(): Promise<void>;
};

const EMPTY = Buffer.alloc(0);

/**
 * One POST through the pool with undici's dispatch API and a raw handler: no response stream, no promise and
 * no per-call closures (one small object per call), and one chunk — the usual case — is passed on uncopied.
 * `done` is called exactly once.
 */
class PostHandler {
  private status = 0;
  private first: Buffer | undefined = undefined;
  private chunks: Buffer[] | undefined = undefined;
  private finished = false;
  constructor(private readonly done: TPostDone) {}
  // undici picks the handler API by the presence of onRequestStart: keep it, even empty.
  onRequestStart(): void {}
  onResponseStart(_controller: unknown, statusCode: number): void {
    this.status = statusCode;
  }
  onResponseData(_controller: unknown, chunk: Buffer): void {
    if (this.first === undefined) this.first = chunk;
    else (this.chunks ??= [this.first]).push(chunk);
  }
  onResponseEnd(): void {
    if (this.finished) return;
    this.finished = true;
    this.done(null, this.status, this.chunks ? Buffer.concat(this.chunks) : (this.first ?? EMPTY));
  }
  onResponseError(_controller: unknown, error: Error): void {
    if (this.finished) return;
    this.finished = true;
    this.done(error, 0, EMPTY);
  }
}

class UndiciClient implements TUpstreamClient {
  constructor(private readonly pool: Pool) {}
  post(path: string, body: string | Buffer, done: TPostDone): void {
    const handler = new PostHandler(done);
    try {
      this.pool.dispatch({ path, method: 'POST', headers: JSON_HEADERS, body }, handler);
    } catch (err) {
      handler.onResponseError(undefined, err as Error);
    }
  }
  close(): Promise<void> {
    return this.pool.close();
  }
}

function post(u: TUpstream, body: string | Buffer, quick: boolean, done: TPostDone): void {
  u.client.post(u.path, body, done, quick);
}

/** Set UPSTREAM_CLIENT=undici to send http upstreams' calls through undici too (comparisons). */
const rawForHttp = process.env.UPSTREAM_CLIENT !== 'undici';

export class UpstreamGroup {
  private next = 0;
  /** Each member's latency recorder for this group, resolved at its first reply. */
  readonly latency = new Map<TUpstream, (seconds: number) => void>();
  constructor(
    readonly name: string,
    readonly members: TUpstream[],
    /** the chain label of its metrics */
    readonly chain = '',
  ) {}

  get isEmpty(): boolean {
    return this.members.length === 0;
  }

  /** Members in try order: in-sync healthy ones (round-robin), then the rest as a last resort. */
  order(maxLag: number): TUpstream[] {
    const n = this.members.length;
    if (n === 1) return this.members;
    let best = 0;
    for (const m of this.members) if (m.healthy && m.head > best) best = m.head;
    const good: TUpstream[] = [];
    const rest: TUpstream[] = [];
    const start = this.next++ % n;
    for (let i = 0; i < n; i++) {
      const m = this.members[(start + i) % n] as TUpstream;
      (m.healthy && best - m.head <= maxLag ? good : rest).push(m);
    }
    return good.length === n ? good : good.concat(rest);
  }
}

export type TChainUpstreams = {
  full: UpstreamGroup;
  archive: UpstreamGroup;
  mev: UpstreamGroup;
  bundler: Record<TBundler, UpstreamGroup>;
  ws: string[];
  /** Best head seen by health checks across the full group; 0 until known. */
  head: number;
};

/** Dedicated nodes share one upstream label: their number must not set the number of series. */
function labelIn(group: UpstreamGroup, u: TUpstream): string {
  return group.chain === DEDICATED_CHAIN_LABEL ? DEDICATED_CHAIN_LABEL : u.label;
}

function errorKind(err: Error | null, status: number): TUpstreamErrorKind {
  if (!err) return status === 429 ? 'http_429' : 'http_5xx';
  // undici's UND_ERR_CONNECT_TIMEOUT, UND_ERR_HEADERS_TIMEOUT, UND_ERR_BODY_TIMEOUT
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code.endsWith('_TIMEOUT') ? 'timeout' : 'network';
}

export class UpstreamSet {
  readonly chains = new Map<string, TChainUpstreams>();
  private readonly pools = new Map<string, TUpstream>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    chains: TChain[],
    readonly opts: TUpstreamOptions,
  ) {
    for (const c of chains) {
      const bundler = {} as Record<TBundler, UpstreamGroup>;
      for (const b of BUNDLERS) bundler[b] = this.group(c.id, `bundler:${b}`, c.http.bundler[b]);
      this.chains.set(c.id, {
        full: this.group(c.id, 'full', c.http.full),
        archive: this.group(c.id, 'archive', c.http.archive),
        mev: this.group(c.id, 'mev', c.http.mev),
        bundler,
        ws: c.ws,
        head: 0,
      });
    }
  }

  private group(chain: string, name: string, urls: string[]): UpstreamGroup {
    return new UpstreamGroup(
      name,
      urls.map((u) => this.upstream(u)),
      chain,
    );
  }

  private upstream(url: string, polled = true): TUpstream {
    const known = this.pools.get(url);
    if (known) {
      // A chain's upstream that is also a dedicated node's stays polled (and is never released).
      known.polled ||= polled;
      return known;
    }
    const parsed = new URL(url);
    const u: TUpstream = {
      url,
      label: upstreamLabel(url),
      path: parsed.pathname + parsed.search,
      client:
        parsed.protocol === 'http:' && rawForHttp
          ? new RawHttpClient(
              parsed.hostname.replace(/^\[|\]$/g, ''),
              Number(parsed.port || 80),
              parsed.host,
              {
                connections: this.opts.connectionsPerUpstream,
                timeoutMs: this.opts.timeoutMs,
                connectTimeoutMs: Math.min(this.opts.timeoutMs, 5000),
                pipelineDepth: this.opts.pipelineDepth,
              },
            )
          : new UndiciClient(
              new Pool(parsed.origin, {
                connections: this.opts.connectionsPerUpstream,
                keepAliveTimeout: 30_000,
                headersTimeout: this.opts.timeoutMs,
                bodyTimeout: this.opts.timeoutMs,
                connectTimeout: Math.min(this.opts.timeoutMs, 5000),
              }),
            ),
      healthy: true,
      head: 0,
      failures: 0,
      polled,
      users: 0,
    };
    this.pools.set(url, u);
    return u;
  }

  /**
   * A dedicated node's upstreams: one full-node member (its pool counted once however many routes use it), no other
   * group. Not part of `chains`: its health is learnt from its calls (and the console's lifecycle), not polled.
   */
  dedicated(http: string, ws: string[]): TChainUpstreams {
    const bundler = {} as Record<TBundler, UpstreamGroup>;
    for (const b of BUNDLERS) bundler[b] = new UpstreamGroup(`bundler:${b}`, []);
    const member = this.upstream(http, false);
    member.users += 1;
    return {
      full: new UpstreamGroup('full', [member], DEDICATED_CHAIN_LABEL),
      archive: new UpstreamGroup('archive', []),
      mev: new UpstreamGroup('mev', []),
      bundler,
      ws,
      head: 0,
    };
  }

  /** A dedicated node's route let go: its pool closes once nothing uses it. */
  releaseDedicated(http: string): void {
    const u = this.pools.get(http);
    if (!u || u.polled) return;
    u.users -= 1;
    if (u.users > 0) return;
    this.pools.delete(http);
    u.client.close().catch(() => {});
  }

  /**
   * Sends `body` to the group, trying the next member on a network error, a timeout or an HTTP 5xx/429;
   * `done` gets the reply, or undefined when every member failed. Callback form: the single-call hot path
   * uses it to avoid a promise and an async frame per call (and per attempt). `quick`: a fast read, which may be
   * pipelined with others to a plain-http upstream.
   */
  sendTo(
    group: UpstreamGroup,
    body: string | Buffer,
    quick: boolean,
    done: (reply: TUpstreamReply | undefined) => void,
  ): void {
    this.attempt(group, group.order(this.opts.maxLagBlocks), 0, body, done, quick);
  }

  private attempt(
    group: UpstreamGroup,
    order: TUpstream[],
    i: number,
    body: string | Buffer,
    done: (reply: TUpstreamReply | undefined) => void,
    quick: boolean,
  ): void {
    const u = order[i];
    if (u === undefined) return done(undefined);
    const started = performance.now();
    post(u, body, quick, (err, status, resBody) => {
      // Every reply is timed, 5xx and 429 included; an attempt that got none is an error only.
      if (!err) this.observe(group, u, (performance.now() - started) / 1000);
      if (err || status >= 500 || status === 429) {
        this.opts.metrics?.error(group.chain, labelIn(group, u), errorKind(err, status));
        if (err === null || err !== u.lastError) this.markFailure(u);
        if (err) u.lastError = err;
        return this.attempt(group, order, i + 1, body, done, quick);
      }
      u.failures = 0;
      done({ status, body: resBody, upstream: u.url });
    });
  }

  private observe(group: UpstreamGroup, u: TUpstream, seconds: number): void {
    const metrics = this.opts.metrics;
    if (!metrics) return;
    let record = group.latency.get(u);
    if (!record)
      group.latency.set(u, (record = metrics.latency(group.chain, group.name, labelIn(group, u))));
    record(seconds);
  }

  /** Promise form of sendTo (batches, tests). */
  send(group: UpstreamGroup, body: string | Buffer): Promise<TUpstreamReply | undefined> {
    return new Promise((resolve) => this.sendTo(group, body, false, resolve));
  }

  private markFailure(u: TUpstream): void {
    u.failures += 1;
    if (u.failures >= 2) u.healthy = false;
  }

  /** Polls eth_blockNumber on every upstream; also the way a failed upstream comes back. */
  startHealthChecks(intervalMs: number): void {
    const run = () => {
      this.checkAll().catch(() => {});
    };
    run();
    this.timer = setInterval(run, intervalMs);
    this.timer.unref();
  }

  async checkAll(): Promise<void> {
    const probe = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';
    await Promise.all(
      [...this.pools.values()].map(async (u) => {
        if (!u.polled) return;
        try {
          const body = await new Promise<Buffer>((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new Error('health check timed out')),
              Math.min(this.opts.timeoutMs, 3000),
            );
            u.client.post(u.path, probe, (err, status, answer) => {
              clearTimeout(timer);
              if (err || status !== 200) reject(err ?? new Error(`HTTP ${status}`));
              else resolve(answer);
            });
          });
          const json = JSON.parse(body.toString('utf8')) as { result?: string };
          const head = typeof json.result === 'string' ? Number.parseInt(json.result, 16) : NaN;
          if (!Number.isFinite(head)) throw new Error('no block number');
          u.head = head;
          u.healthy = true;
          u.failures = 0;
        } catch {
          u.healthy = false;
        }
      }),
    );
    for (const c of this.chains.values()) {
      let best = 0;
      for (const m of c.full.members) if (m.healthy && m.head > best) best = m.head;
      if (best > 0) c.head = best;
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.all([...this.pools.values()].map((u) => u.client.close().catch(() => {})));
  }
}
