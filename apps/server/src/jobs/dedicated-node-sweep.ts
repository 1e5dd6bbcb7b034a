/**
 * Runs the dedicated-node lifecycle on the job engine that runs exports (services/exports/job-queue.ts, pg-boss): a
 * pass of the lifecycle is a `dn-lifecycle` job, sent every DN_SWEEP_IDLE_MS, and every DN_SWEEP_BUSY_MS while nodes
 * wait to come online (so a purchase is up in seconds, not a minute). One waiting job at most (singletonKey), so a
 * slow pass never piles jobs up; a failed pass is retried by the engine. Only a console with DN_SWEEP works the
 * queue: the local driver's processes belong to the console that runs them (docs/decisions/dedicated-nodes.md).
 * Every step of a pass is idempotent, so two passes at once change nothing twice.
 */
import type { TDeps } from '../rpc/context';
import { sweepDedicatedNodes, type TDnSweepResult } from '../services/dedicated-nodes/lifecycle';

export const DN_SWEEP_IDLE_MS = 15_000;
export const DN_SWEEP_BUSY_MS = 2_000;
export const DN_LIFECYCLE_QUEUE = 'dn-lifecycle';

export async function startDnSweep(
  deps: Pick<TDeps, 'jobs' | 'logger'> & Parameters<typeof sweepDedicatedNodes>[0],
  every = { idleMs: DN_SWEEP_IDLE_MS, busyMs: DN_SWEEP_BUSY_MS },
): Promise<() => Promise<void>> {
  let last: TDnSweepResult | undefined;
  await deps.jobs.work(DN_LIFECYCLE_QUEUE, async () => {
    const r = await sweepDedicatedNodes(deps);
    last = r;
    if (r.provisioned + r.online + r.willExpire + r.expired + r.dataDeleted + r.recovered > 0)
      deps.logger.info(r, 'dedicated nodes swept');
  });
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = () => {
    deps.jobs
      .send(DN_LIFECYCLE_QUEUE, {}, { singletonKey: 'pass' })
      .catch((err: unknown) => deps.logger.error({ err }, 'dedicated node sweep not queued'))
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(tick, (last?.pending ?? 0) > 0 ? every.busyMs : every.idleMs);
        timer.unref();
      });
  };
  tick();
  return async () => {
    stopped = true;
    clearTimeout(timer);
  };
}
