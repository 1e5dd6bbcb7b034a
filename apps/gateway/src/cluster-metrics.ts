/**
 * /metrics over every gateway worker (GATEWAY_WORKERS > 1): a scrape lands on whichever worker took the connection,
 * which asks its cluster primary; the primary gathers every worker's registry through prom-client's
 * AggregatorRegistry (counters summed) and answers. Without this, successive scrapes would read different workers'
 * counters and Prometheus would see them jump back and forth.
 */
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

export const METRICS_IPC_REQUEST = 'rpc:gateway-metrics-req';
export const METRICS_IPC_RESPONSE = 'rpc:gateway-metrics-res';

type TMetricsResponse = { type: string; id: number; text?: string; error?: string };

const TIMEOUT_MS = 5_000;

/**
 * In a worker: offers `registry` to the primary's aggregation and returns the scrape function (the whole cluster's
 * text). Undefined outside a cluster worker.
 */
export function workerMetricsCollector(registry: Registry): (() => Promise<string>) | undefined {
  if (!cluster.isWorker || !process.send) return undefined;
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs prom-client's worker-side listener that answers the primary's gathering.
  new AggregatorRegistry();
  let next = 0;
  const waiting = new Map<number, (r: TMetricsResponse) => void>();
  process.on('message', (m: unknown) => {
    const r = m as TMetricsResponse;
    if (r?.type === METRICS_IPC_RESPONSE) waiting.get(r.id)?.(r);
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('metrics: the primary did not answer'));
      }, TIMEOUT_MS);
      waiting.set(id, (r) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (r.text !== undefined) resolve(r.text);
        else reject(new Error(r.error ?? 'metrics: no answer'));
      });
      process.send?.({ type: METRICS_IPC_REQUEST, id });
    });
}

/** In the primary: answers workers' scrape requests with every worker's metrics, aggregated. */
export function serveClusterMetrics(): () => void {
  const aggregator = new AggregatorRegistry();
  const onMessage = (worker: { send: (m: unknown) => boolean }, m: unknown) => {
    const q = m as { type?: string; id?: number };
    if (q?.type !== METRICS_IPC_REQUEST || typeof q.id !== 'number') return;
    const id = q.id;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: METRICS_IPC_RESPONSE, id, text }),
      (err: unknown) =>
        worker.send({ type: METRICS_IPC_RESPONSE, id, error: (err as Error).message }),
    );
  };
  cluster.on('message', onMessage);
  return () => {
    cluster.off('message', onMessage);
  };
}
