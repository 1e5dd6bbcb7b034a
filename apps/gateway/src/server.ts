/** startGateway: wires the key store, limits, metering, usage and upstreams into one node:http server. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TChain } from './chains';
import { loadChains } from './chains';
import type { TGatewayContext } from './context';
import { createHttpHandler, serveReadCall } from './http-handler';
import { clientIpOf, parsePath } from './context';
import { attachRawFront } from './raw-front';
import { MemoryKeyStore } from './key-cache';
import { KeyLimiter } from './limits';
import type { TRuTable } from './metering';
import { defaultRuTable } from './metering';
import type { AccountBalance, DnNodeStore, KeyStore, TNotifier, UsageSink } from './types';
import { DedicatedRoutes, emptyDnStore } from './dedicated';
import { UpstreamSet } from './upstreams';
import { unlimitedBalance } from './budget';
import { FilterOwners } from './filter-owners';
import { createCallPolicy } from './method-policy';
import { createGatewayMetrics } from './metrics';
import { RefusalCounter } from './refusals';
import { RequestLog } from './request-log';
import { MemoryUsageSink, UsageAggregator } from './usage';
import { createUpgradeHandler } from './ws-relay';

export type TGatewayOptions = {
  port: number;
  host?: string;
  /** API keys; default: an empty store (every key is refused). */
  keys?: KeyStore;
  /** Dedicated nodes served at /dn/{nodeId}/{apiKey}; default: none. */
  dnNodes?: DnNodeStore;
  /** Default: every account has RU and consumption is not tracked. */
  balance?: AccountBalance;
  /** Default: an in-memory sink (usage is lost at exit; the DB wiring supplies a SQL sink). */
  usageSink?: UsageSink;
  /** Receives `api_service_is_paused` at most once per account per `pausedNoticeEveryMs`. */
  notify?: TNotifier;
  pausedNoticeEveryMs?: number;
  /** Default: config/chains.json resolved from process.env. */
  chains?: TChain[];
  ruTable?: TRuTable;
  maxBodyBytes?: number;
  maxBatch?: number;
  flushIntervalMs?: number;
  /** Per-key request log caps per flush window (request-log.ts); the log is kept only for a sink that takes it. */
  requestLog?: { maxPerKey?: number; maxEntries?: number };
  /**
   * Crash journal of usage (one directory per gateway process): every call is written to it before its answer
   * leaves, and what a killed process left is written before this one serves. Without it a crash loses unflushed
   * usage.
   */
  usageJournalDir?: string;
  healthCheckIntervalMs?: number;
  upstreamTimeoutMs?: number;
  maxLagBlocks?: number;
  connectionsPerUpstream?: number;
  /**
   * The most quick reads written together on one connection to a plain-http upstream (HTTP/1.1 pipelining;
   * default: UPSTREAM_PIPELINE, else 8; 1 = one call per connection at a time).
   */
  upstreamPipeline?: number;
  /** This process's share of each key's rates when several gateway processes serve the keys (default 1). */
  limitShare?: () => number;
  /**
   * The per-key limiter, when not this process's own buckets (scale mode: one bucket per key in Redis,
   * apps/server/src/gateway/redis-rate-limiter.ts). Stopped with the gateway.
   */
  limiter?: KeyLimiter;
  /**
   * Plain POSTs to gateway paths are read off the socket by the raw front (raw-front.ts); false sends every
   * request through node:http (default: true, or GATEWAY_RAW_FRONT=0 for false).
   */
  rawFront?: boolean;
  /**
   * Proxies of ours in front (true: one): the client IP is X-Forwarded-For's entry that many places from the right,
   * the one our outermost proxy appended (default none: the socket's address).
   */
  trustProxy?: boolean | number;
  /**
   * GET /metrics answers only requests with `Authorization: Bearer <token>`; unset, only loopback clients
   * (docs/decisions/metrics.md). Default: process.env.METRICS_TOKEN.
   */
  metricsToken?: string;
  /** In a GATEWAY_WORKERS worker: scrapes answer every worker's metrics, gathered by the primary. */
  metricsAcrossWorkers?: boolean;
  onError?: (err: unknown) => void;
};

export type TGateway = {
  url: string;
  /** Writes usage, refusals and the request log to the sink now (tests; timers do it every flushIntervalMs). */
  flushUsage: () => Promise<void>;
  /** Runs the upstream health checks now. */
  checkUpstreams: () => Promise<void>;
  /** Lets go of dedicated nodes the store no longer serves (tests; a timer does it every 10 s). */
  pruneDedicated: () => void;
  stop: () => Promise<void>;
  /** Live state for tests and diagnostics: limiter slots held by a key, its open sockets, shared subscriptions. */
  inspect: () => {
    inFlight: (keyId: string) => number;
    openSockets: (keyId: string) => number;
    upstreamSubscriptions: (chain: string) => number;
    /** The raw front's connections and hand-overs to node:http (undefined when it is off). */
    rawFront: () => { connections: number; handedOver: number } | undefined;
  };
};

export async function startGateway(opts: TGatewayOptions): Promise<TGateway> {
  const chains = opts.chains ?? loadChains();
  const ruTable = opts.ruTable ?? defaultRuTable;
  const onError = opts.onError ?? (() => {});
  const rawFront = opts.rawFront ?? process.env.GATEWAY_RAW_FRONT !== '0';
  const usage = new UsageAggregator({
    sink: opts.usageSink ?? new MemoryUsageSink(),
    ruTableVersion: ruTable.version,
    flushIntervalMs: opts.flushIntervalMs ?? 5000,
    journalDir: opts.usageJournalDir,
    // Every answer path commits the journal before it writes (the raw front once per event-loop turn).
    groupJournalWrites: rawFront,
    onError,
  });
  await usage.replay();
  const metrics = createGatewayMetrics({
    ruTable,
    chains: chains.map((c) => c.id),
    token: opts.metricsToken ?? process.env.METRICS_TOKEN,
    acrossWorkers: opts.metricsAcrossWorkers,
  });
  // Refusals are counted only for a sink that takes them (refusals.ts).
  const sink = opts.usageSink;
  const refusals = sink?.writeRefusals
    ? new RefusalCounter({
        write: (batch) => sink.writeRefusals?.(batch) ?? Promise.resolve(),
        flushIntervalMs: opts.flushIntervalMs ?? 5000,
        onError,
      })
    : undefined;
  const requestLog = sink?.writeRequestLogs
    ? new RequestLog({
        write: (batch) => sink.writeRequestLogs?.(batch) ?? Promise.resolve(),
        flushIntervalMs: opts.flushIntervalMs ?? 5000,
        ...opts.requestLog,
        onError,
      })
    : undefined;
  const upstreams = new UpstreamSet(chains, {
    timeoutMs: opts.upstreamTimeoutMs ?? 10_000,
    maxLagBlocks: opts.maxLagBlocks ?? 10,
    connectionsPerUpstream: opts.connectionsPerUpstream ?? 128,
    pipelineDepth: opts.upstreamPipeline ?? pipelineFromEnv(),
    metrics: metrics.upstream,
  });
  const lastNotice = new Map<string, number>();
  const noticeEvery = opts.pausedNoticeEveryMs ?? 60_000;
  const filters = new FilterOwners();
  const chainMap = new Map(chains.map((c) => [c.id, c]));
  const dedicated = new DedicatedRoutes(opts.dnNodes ?? emptyDnStore, upstreams, chainMap);
  const ctx: TGatewayContext = {
    chains: chainMap,
    keys: opts.keys ?? new MemoryKeyStore(),
    dedicated,
    balance: opts.balance ?? unlimitedBalance,
    upstreams,
    limiter: opts.limiter ?? new KeyLimiter(undefined, opts.limitShare),
    usage,
    ...(refusals ? { refusals } : {}),
    ...(requestLog ? { requestLog } : {}),
    metrics,
    ruTable,
    maxBodyBytes: opts.maxBodyBytes ?? 2 * 1024 * 1024,
    maxBatch: opts.maxBatch ?? 100,
    trustProxy: opts.trustProxy === true ? 1 : opts.trustProxy || 0,
    policy: createCallPolicy(ruTable, filters),
    filters,
    notifyPaused: (accountId, keyId, chain) => {
      const now = Date.now();
      const last = lastNotice.get(accountId);
      if (last !== undefined && now - last < noticeEvery) return;
      lastNotice.set(accountId, now);
      try {
        opts.notify?.({ type: 'api_service_is_paused', accountId, keyId, chain, at: now });
      } catch (err) {
        onError(err);
      }
    },
  };

  const server = http.createServer({ keepAliveTimeout: 65_000 }, createHttpHandler(ctx));
  const front = rawFront
    ? attachRawFront(server, {
        keepAliveTimeoutMs: 65_000,
        beforeAnswers: () => usage.commitJournal(),
        route: parsePath,
        serve: (out, r, target) =>
          serveReadCall(
            ctx,
            out,
            target,
            r.origin,
            clientIpOf(ctx, r.forwardedFor, r.remoteAddress),
            r.body,
            r.started,
          ),
      })
    : undefined;
  const ws = createUpgradeHandler(ctx);
  server.on('upgrade', ws.onUpgrade);
  metrics.watch({
    oldestUnflushedAt: () => usage.oldestUnflushedAt,
    flushFailures: () => usage.flushFailures,
    webSockets: () => ws.stats().sockets,
    subscriptions: () => ws.stats().subscriptions,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  usage.start();
  refusals?.start();
  requestLog?.start();
  upstreams.startHealthChecks(opts.healthCheckIntervalMs ?? 2000);
  // Dedicated nodes that left the store (expired, deleted, moved) let go of their connection pools.
  const pruneDedicated = setInterval(() => dedicated.prune(), 10_000);
  pruneDedicated.unref();
  const { port } = server.address() as AddressInfo;

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      clearInterval(pruneDedicated);
      await ws.close();
      // In-flight calls may finish (and be metered); after 5 s whatever is left is cut.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      front?.closeIdle();
      const force = setTimeout(() => {
        server.closeAllConnections();
        front?.closeAll();
      }, 5000);
      await closed;
      clearTimeout(force);
      try {
        await usage.stop();
      } catch (err) {
        onError(err); // the batch is lost with the process: an under-count, never a double count
      }
      // Refusal counts are not billing: a failed last write loses them.
      await refusals?.stop().catch(onError);
      await requestLog?.stop().catch(onError);
      await ctx.limiter.stop().catch(onError);
      await upstreams.close();
    })());

  return {
    url: `http://localhost:${port}`,
    flushUsage: async () => {
      await usage.flush();
      await refusals?.flush();
      await requestLog?.flush();
    },
    checkUpstreams: () => upstreams.checkAll(),
    pruneDedicated: () => dedicated.prune(),
    stop,
    inspect: () => ({
      inFlight: (keyId) => ctx.limiter.inFlight(keyId),
      openSockets: (keyId) => ws.openSockets(keyId),
      upstreamSubscriptions: (chain) => ws.upstreams.get(chain)?.upstreamSubscriptions ?? 0,
      rawFront: () => front?.stats(),
    }),
  };
}

/** Quick reads written together on one upstream connection unless UPSTREAM_PIPELINE says otherwise. */
export const DEFAULT_UPSTREAM_PIPELINE = 8;

/** UPSTREAM_PIPELINE: 1 (no pipelining) to 64 quick reads per upstream connection; anything else stops the start. */
export function pipelineFromEnv(value = process.env.UPSTREAM_PIPELINE): number {
  if (value === undefined || value === '') return DEFAULT_UPSTREAM_PIPELINE;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new Error(`UPSTREAM_PIPELINE must be a whole number from 1 to 64, not "${value}"`);
  return n;
}
