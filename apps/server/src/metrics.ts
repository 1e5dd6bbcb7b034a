/**
 * The console's Prometheus metrics and GET /metrics: HTTP requests by route, dispatcher calls by method and error
 * code, the job queue's depth, open notice sockets and the process's own metrics, in a registry of this server
 * (the embedded gateway keeps its own on its own port). Names, labels and exposure: docs/decisions/metrics.md.
 */
import { getMethod } from '@rpc/contract';
import { addProcessMetrics, isScrapeAllowed } from '@rpc/gateway';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TAppConfig } from './rpc/context';
import type { TJobQueue } from './services/exports/job-queue';

export type TConsoleMetrics = {
  registry: Registry;
  /** One dispatched call: its method (catalogue names only, else "other") and error code (0: answered). */
  rpcCall: (method: string | undefined, code: number) => void;
};

/**
 * Each server's metrics by its config object (one per createServer), so the dispatcher reaches them through the
 * context it already has; two servers in one process keep apart. (TDeps can carry them once rpc/context.ts is next
 * changed; then this map goes.)
 */
const byServer = new WeakMap<TAppConfig, TConsoleMetrics>();

/** Records one dispatched call for the server whose context it is (nothing when metrics are not registered). */
export function noteRpcCall(
  ctx: { config: TAppConfig },
  method: string | undefined,
  code: number,
): void {
  byServer.get(ctx.config)?.rpcCall(method, code);
}

export type TRegisterMetricsOptions = {
  config: TAppConfig;
  /** METRICS_TOKEN; unset: only loopback clients may scrape. */
  token: string | undefined;
  jobs: Pick<TJobQueue, 'depth'>;
  noticeSockets: { readonly size: number };
};

/** Creates the registry, counts every response (a hook on the root, so every route) and serves GET /metrics. */
export function registerMetrics(app: FastifyInstance, o: TRegisterMetricsOptions): TConsoleMetrics {
  const registry = new Registry();
  addProcessMetrics(registry);
  const httpRequests = new Counter({
    name: 'console_http_requests_total',
    help: 'HTTP requests by route pattern ("unmatched" for unknown paths), HTTP method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'console_http_request_duration_seconds',
    help: 'HTTP request duration by route pattern',
    labelNames: ['route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const rpcCalls = new Counter({
    name: 'console_rpc_calls_total',
    help: 'Console API (POST /api) calls by method (catalogue names only, else "other") and error code (0: answered)',
    labelNames: ['method', 'code'],
    registers: [registry],
  });
  new Gauge({
    name: 'console_job_queue_depth',
    help: 'Background jobs waiting to run (queued or waiting for a retry), per queue, across every process',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      // A database that does not answer leaves the series out rather than failing the whole scrape.
      const depth = await o.jobs.depth().catch(() => ({}));
      this.reset();
      for (const [queue, n] of Object.entries(depth)) this.set({ queue }, n);
    },
  });
  new Gauge({
    name: 'console_notice_sockets',
    help: 'Open notice WebSockets of this process',
    registers: [registry],
    collect() {
      this.set(o.noticeSockets.size);
    },
  });

  const metrics: TConsoleMetrics = {
    registry,
    rpcCall: (method, code) => {
      const label = method !== undefined && getMethod(method) ? method : 'other';
      rpcCalls.inc({ method: label, code: String(code) });
    },
  };
  byServer.set(o.config, metrics);

  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern (/api, /invoices/:code/pdf), never the raw URL: ids and tokens are not labels.
    const route = (!request.is404 && request.routeOptions.url) || 'unmatched';
    httpRequests.inc({ route, method: request.method, status: String(reply.statusCode) });
    httpDuration.observe({ route }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', async (request, reply) => {
    // The socket's address, never X-Forwarded-For (TRUST_PROXY): see isScrapeAllowed.
    if (!isScrapeAllowed(o.token, request.headers, request.socket.remoteAddress))
      return reply.code(404).send({ error: 'not found' });
    const text = await registry.metrics();
    return reply
      .header('content-type', registry.contentType)
      .header('cache-control', 'no-store')
      .send(text);
  });
  return metrics;
}
