/**
 * GATEWAY_WORKERS above 1 (scale mode): the primary process forks that many gateway-only workers with node:cluster,
 * all serving GATEWAY_PORT. Each worker is a whole gateway process (its own PostgreSQL pool, key cache, usage
 * journal and Redis leases), so balances and key rates are shared exactly as between separate gateway processes
 * (docs/scale-mode.md, "Gateway workers"). The primary restarts a worker that dies into the same slot, so the
 * replacement finds and replays that slot's usage journal, and stops them all on shutdown.
 */
import cluster, { type Worker } from 'node:cluster';
import { serveClusterMetrics } from '@rpc/gateway';
import type { Logger } from 'pino';

/** The slot a worker serves (0 … count-1): names its usage-journal directory across restarts. */
export const WORKER_SLOT_ENV = 'GATEWAY_WORKER_SLOT';

export type TGatewayWorkers = {
  url: string;
  /** Workers alive now (tests and diagnostics). */
  pids: () => number[];
  /** SIGTERM to every worker (each flushes its usage and gives its leases back), then waits for them. */
  stop: () => Promise<void>;
};

export type TStartGatewayWorkersOptions = {
  count: number;
  /** Environment added to the primary's for every worker (ROLE=gateway is always set). */
  env: Record<string, string>;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** How long a stopping worker may take before it is killed. */
  stopTimeoutMs?: number;
};

const RESTART_DELAY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

export async function startGatewayWorkers(
  o: TStartGatewayWorkersOptions,
): Promise<TGatewayWorkers> {
  const slots: (Worker | undefined)[] = Array.from({ length: o.count }, () => undefined);
  const failures: number[] = Array.from({ length: o.count }, () => 0);
  const restartTimers = new Set<NodeJS.Timeout>();
  let isStopping = false;
  let port: number | undefined;
  // A scrape on any worker answers every worker's series (the workers ask here).
  const stopMetrics = serveClusterMetrics();

  const fork = (slot: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork({ ...o.env, ROLE: 'gateway', [WORKER_SLOT_ENV]: String(slot) });
      slots[slot] = worker;
      let isListening = false;
      worker.once('listening', (address) => {
        isListening = true;
        port ??= address.port;
        if (failures[slot]! > 0) o.logger.warn({ slot }, 'gateway worker replaced and listening');
        // A worker that stays up a minute has recovered: its next failure restarts it quickly again.
        setTimeout(() => {
          if (slots[slot] === worker) failures[slot] = 0;
        }, 60_000).unref();
        resolve();
      });
      worker.once('exit', (code, signal) => {
        if (slots[slot] === worker) slots[slot] = undefined;
        if (!isListening) {
          reject(new Error(`gateway worker ${slot} exited before listening (${signal ?? code})`));
          return;
        }
        if (isStopping) return;
        const delay = RESTART_DELAY_MS[Math.min(failures[slot]!, RESTART_DELAY_MS.length - 1)]!;
        failures[slot]! += 1;
        o.logger.error({ slot, code, signal, restartInMs: delay }, 'gateway worker died');
        const timer = setTimeout(() => {
          restartTimers.delete(timer);
          if (isStopping) return;
          fork(slot).catch((err: unknown) => {
            o.logger.error({ err, slot }, 'gateway worker restart failed');
          });
        }, delay);
        restartTimers.add(timer);
      });
    });

  const stop = async () => {
    isStopping = true;
    stopMetrics();
    for (const t of restartTimers) clearTimeout(t);
    restartTimers.clear();
    await Promise.all(
      slots.map((worker) => {
        if (!worker || worker.isDead()) return Promise.resolve();
        return new Promise<void>((resolve) => {
          const kill = setTimeout(() => worker.process.kill('SIGKILL'), o.stopTimeoutMs ?? 12_000);
          worker.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          worker.process.kill('SIGTERM');
        });
      }),
    );
  };

  try {
    // Together: migrations run under an advisory lock, and the Redis registration is per process.
    await Promise.all(slots.map((_, slot) => fork(slot)));
  } catch (err) {
    await stop();
    throw err;
  }
  o.logger.info({ workers: o.count, port }, 'gateway workers listening');
  return {
    url: `http://localhost:${port}`,
    pids: () => slots.flatMap((w) => (w && !w.isDead() && w.process.pid ? [w.process.pid] : [])),
    stop,
  };
}
