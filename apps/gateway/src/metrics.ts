/**
 * The gateway's Prometheus metrics, in one registry per gateway (two gateways in one process do not clash), and the
 * rule for who may scrape them. The call path only adds to plain numbers on objects it resolved once (per chain and
 * method, per upstream); prom-client turns them into series when /metrics is scraped, so a call builds no label
 * object, hashes no label string and starts no timer. Names, labels and their bounds: docs/decisions/metrics.md.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Metric } from 'prom-client';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { workerMetricsCollector } from './cluster-metrics';
import type { TRuTable } from './metering';

/** How calls that reached the pipeline with a method ended, per (chain, method). */
export type TCallStats = {
  readonly chain: string;
  readonly method: string;
  /** answered with a result */
  ok: number;
  /** answered with the node's JSON-RPC error (or a non-200 reply) */
  error: number;
  /** no upstream answered */
  unavailable: number;
  /** settled unanswered (the client went away, an unexpected exception) */
  cancelled: number;
  /** refused by the gateway once its method was read (catalogue, allowlists, RUs, rate limits) */
  refused: number;
};

const OUTCOMES = ['ok', 'error', 'unavailable', 'cancelled', 'refused'] as const;

export type TUpstreamErrorKind = 'timeout' | 'network' | 'http_429' | 'http_5xx';

/** What the upstream set records per attempt (upstreams.ts). */
export type TUpstreamMetrics = {
  /** The latency recorder of one (chain, group, upstream): resolve once, call per reply. */
  latency: (chain: string, group: string, upstream: string) => (seconds: number) => void;
  error: (chain: string, upstream: string, kind: TUpstreamErrorKind) => void;
};

/** Live state read only when scraped. */
export type TMetricSources = {
  /** epoch ms of the oldest usage not yet written to the sink, or undefined when everything is written */
  oldestUnflushedAt: () => number | undefined;
  flushFailures: () => number;
  webSockets: () => number;
  /** client subscriptions, and the shared ones they use upstream */
  subscriptions: () => { client: number; upstream: number };
};

export type TGatewayMetrics = {
  registry: Registry;
  /** What a scrape answers: this registry, or in a cluster worker every worker's (cluster-metrics.ts). */
  collect: () => Promise<string>;
  /** METRICS_TOKEN: when set, scrapes must carry it as a bearer token; otherwise only loopback may scrape. */
  token: string | undefined;
  /** The counters of one (chain, method); an unknown method shares the "other" counters (no new series). */
  callStats: (chain: string, dedicated: boolean, method: string) => TCallStats;
  /** A call or request the gateway refused itself, by JSON-RPC code; `count` calls of a batch. */
  refused: (code: number, count: number) => void;
  upstream: TUpstreamMetrics;
  /** Wires the live state in once the parts that hold it exist. */
  watch: (sources: TMetricSources) => void;
};

/** Latency buckets (seconds) of one upstream request: a local node answers in ~1 ms, a remote one in 10–300 ms. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Label of a dedicated node's calls: one value for every node, so node ids never become series. */
export const DEDICATED_CHAIN_LABEL = 'dedicated';
/** Method label of every name that is not in the RU table. */
export const OTHER_LABEL = 'other';

export function createGatewayMetrics(o: {
  ruTable: TRuTable;
  /** the configured chain ids: the only chain label values besides "dedicated" */
  chains: Iterable<string>;
  token?: string;
  /** A cluster worker answers scrapes with every worker's metrics, gathered by its primary. */
  acrossWorkers?: boolean;
}): TGatewayMetrics {
  const registry = new Registry();
  addProcessMetrics(registry);
  const chainLabels = new Set([...o.chains, DEDICATED_CHAIN_LABEL]);
  const exact = new Set(Object.keys(o.ruTable.methods));
  const prefixes = Object.keys(o.ruTable.prefixes);
  /** chain label → method (an exact table name, or a label) → its counters */
  const calls = new Map<string, Map<string, TCallStats>>();
  const refusals = new Map<number, number>();
  let sources: TMetricSources | undefined;

  const methodLabel = (method: string): string => {
    if (exact.has(method)) return method;
    // Prefix-priced names (debug_trace…) are open-ended: one series per prefix.
    for (const p of prefixes) if (method.startsWith(p)) return `${p}*`;
    return OTHER_LABEL;
  };

  /** Only configured chains are label values (admission refuses the others before any call is counted). */
  const chainLabel = (chain: string, dedicated: boolean): string =>
    dedicated ? DEDICATED_CHAIN_LABEL : chainLabels.has(chain) ? chain : OTHER_LABEL;

  const callStats = (chain: string, dedicated: boolean, method: string): TCallStats => {
    let byMethod = calls.get(dedicated ? DEDICATED_CHAIN_LABEL : chain);
    if (!byMethod) {
      const label = chainLabel(chain, dedicated);
      byMethod = calls.get(label);
      if (!byMethod) calls.set(label, (byMethod = new Map()));
    }
    const known = byMethod.get(method);
    if (known) return known;
    // Only labels are keys: a caller inventing method names adds nothing to this map.
    const label = methodLabel(method);
    let stats = byMethod.get(label);
    if (!stats) {
      const c = chainLabel(chain, dedicated);
      stats = {
        chain: c,
        method: label,
        ok: 0,
        error: 0,
        unavailable: 0,
        cancelled: 0,
        refused: 0,
      };
      byMethod.set(label, stats);
    }
    return stats;
  };

  new Counter({
    name: 'rpc_requests_total',
    help: 'JSON-RPC calls by chain, method (RU-table names only, else "other") and outcome',
    labelNames: ['chain', 'method', 'outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const byMethod of calls.values())
        for (const s of byMethod.values())
          for (const outcome of OUTCOMES)
            if (s[outcome] > 0) this.inc({ chain: s.chain, method: s.method, outcome }, s[outcome]);
    },
  });
  new Counter({
    name: 'gateway_refusals_total',
    help: 'Calls and requests the gateway refused itself (keys, limits, RUs, allowlists, bad input), by JSON-RPC code',
    labelNames: ['code'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [code, n] of refusals) this.inc({ code: String(code) }, n);
    },
  });
  const latency = new CellHistogram(
    'upstream_request_duration_seconds',
    'Time from sending a request to an upstream node to its whole reply (HTTP; a batch is one request)',
    LATENCY_BUCKETS,
  );
  registry.registerMetric(latency as unknown as Metric);
  const upstreamErrors = new Counter({
    name: 'upstream_errors_total',
    help: 'Failed upstream attempts (each one fails over to the next member): timeout, network, http_429, http_5xx',
    labelNames: ['chain', 'upstream', 'kind'],
    registers: [registry],
  });
  new Gauge({
    name: 'usage_flush_lag_seconds',
    help: 'Age of the oldest usage not yet written to the database (0 when all is written)',
    registers: [registry],
    collect() {
      const oldest = sources?.oldestUnflushedAt();
      this.set(oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
    },
  });
  new Counter({
    name: 'usage_flush_failures_total',
    help: 'Usage batch writes that failed (each is retried with the same batch id)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(sources?.flushFailures() ?? 0);
    },
  });
  new Gauge({
    name: 'gateway_websocket_connections',
    help: 'Open client WebSockets',
    registers: [registry],
    collect() {
      this.set(sources?.webSockets() ?? 0);
    },
  });
  new Gauge({
    name: 'gateway_websocket_subscriptions',
    help: 'Live subscriptions: of clients, and the shared ones upstream that serve them',
    labelNames: ['side'],
    registers: [registry],
    collect() {
      const s = sources?.subscriptions() ?? { client: 0, upstream: 0 };
      this.set({ side: 'client' }, s.client);
      this.set({ side: 'upstream' }, s.upstream);
    },
  });

  const fromCluster = o.acrossWorkers ? workerMetricsCollector(registry) : undefined;
  return {
    registry,
    collect: fromCluster ?? (() => registry.metrics()),
    token: o.token || undefined,
    callStats,
    refused: (code, count) => {
      refusals.set(code, (refusals.get(code) ?? 0) + count);
    },
    upstream: {
      latency: (chain, group, upstream) => latency.child({ chain, group, upstream }),
      error: (chain, upstream, kind) => upstreamErrors.inc({ chain, upstream, kind }),
    },
    watch: (s) => {
      sources = s;
    },
  };
}

type THistogramCell = {
  labels: Record<string, string>;
  /** per bucket, the last one past every bound (+Inf) */
  counts: Float64Array;
  sum: number;
  count: number;
};

/**
 * A histogram kept in plain arrays per label set (resolved once), rendered in prom-client's histogram format when
 * scraped. prom-client's own Histogram builds a label hash and several objects on every observation (measured here
 * at ≈ 3.6 µs under load, 20× a performance.now()); this one searches a bucket and adds three numbers. It is
 * registered through Registry.registerMetric, which reads only name, help, type and get().
 */
class CellHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly cells = new Map<string, THistogramCell>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  /** The recorder of one label set: resolve once, call per observation. */
  child(labels: Record<string, string>): (value: number) => void {
    const id = JSON.stringify(labels);
    let cell = this.cells.get(id);
    if (!cell) {
      cell = { labels, counts: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      this.cells.set(id, cell);
    }
    const c = cell;
    const bounds = this.bounds;
    return (value) => {
      let i = 0;
      while (i < bounds.length && value > (bounds[i] as number)) i++;
      (c.counts[i] as number) += 1;
      c.sum += value;
      c.count += 1;
    };
  }

  reset(): void {
    for (const c of this.cells.values()) {
      c.counts.fill(0);
      c.sum = 0;
      c.count = 0;
    }
  }

  async get() {
    const bucket = `${this.name}_bucket`;
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] =
      [];
    for (const c of this.cells.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += c.counts[i] as number;
        values.push({ labels: { ...c.labels, le }, value: cumulative, metricName: bucket });
      });
      values.push({ labels: { ...c.labels, le: '+Inf' }, value: c.count, metricName: bucket });
      values.push({ labels: c.labels, value: c.sum, metricName: `${this.name}_sum` });
      values.push({ labels: c.labels, value: c.count, metricName: `${this.name}_count` });
    }
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    };
  }
}

/**
 * An upstream's label: host and port only. The URL's path, query and user info are never a label: providers put
 * API keys there.
 */
export function upstreamLabel(url: string): string {
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === 'https:' || u.protocol === 'wss:' ? '443' : '80');
    return `${u.hostname}:${port}`; // an IPv6 hostname keeps its brackets
  } catch {
    return 'invalid';
  }
}

let processMetrics: Registry | undefined;

/**
 * Adds the process's own metrics (CPU, memory, event loop, GC, handles) to a registry. They are collected once per
 * process and shared, so the console and the gateway of the embedded default (one process) do not run two monitors.
 */
export function addProcessMetrics(registry: Registry): void {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  for (const m of processMetrics.getMetricsAsArray())
    registry.registerMetric(m as unknown as Metric);
}

const FORWARDED_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/**
 * Who may read /metrics: with a token, only a request carrying `Authorization: Bearer <token>` (compared in
 * constant time); without one, only a client on this host's loopback that came through no proxy (a local reverse
 * proxy would otherwise make every internet client look like loopback). Everyone else gets the usual 404.
 */
export function isScrapeAllowed(
  token: string | undefined,
  headers: IncomingHttpHeaders,
  remoteAddress: string | undefined,
): boolean {
  if (token) {
    const header = headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    // Hashing first makes the comparison constant-time whatever the lengths.
    return !!m && timingSafeEqual(digest(m[1] as string), digest(token));
  }
  if (FORWARDED_HEADERS.some((h) => headers[h] !== undefined)) return false;
  return isLoopback(remoteAddress);
}
