/**
 * Runs the dedicated-node lifecycle sweep in the console role, beside the package sweep: a plain unref'd timer, every
 * DN_SWEEP_IDLE_MS, and every DN_SWEEP_BUSY_MS while nodes wait to come online (so a purchase is up in seconds, not
 * a minute). Every step is idempotent, so two console processes sweeping at once change nothing twice (but the local
 * driver's processes belong to one console: docs/decisions/dedicated-nodes.md).
 */
import type { TDeps } from '../rpc/context';
import { sweepDedicatedNodes } from '../services/dedicated-nodes/lifecycle';

export const DN_SWEEP_IDLE_MS = 15_000;
export const DN_SWEEP_BUSY_MS = 2_000;

export function startDnSweep(
  deps: TDeps,
  every = { idleMs: DN_SWEEP_IDLE_MS, busyMs: DN_SWEEP_BUSY_MS },
): () => Promise<void> {
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const pass = () => {
    running = sweepDedicatedNodes(deps)
      .then((r) => {
        if (r.provisioned + r.online + r.willExpire + r.expired + r.dataDeleted + r.recovered > 0)
          deps.logger.info(r, 'dedicated nodes swept');
        return r.pending > 0 ? every.busyMs : every.idleMs;
      })
      .catch((err: unknown) => {
        deps.logger.error({ err }, 'dedicated node sweep failed');
        return every.idleMs;
      })
      .then((nextMs) => {
        running = undefined;
        if (stopped) return;
        timer = setTimeout(pass, nextMs);
        timer.unref();
      });
  };
  pass();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
