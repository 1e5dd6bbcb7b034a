/**
 * The console role's periodic jobs (package sweep, card order sweep, disbanded-team sweep, usage prune): `pass` at
 * once and then every `everyMs` on a plain unref'd timer, one pass at a time (a pass still under way when the
 * timer fires is not doubled), its failure logged as "<name> failed" and tried again at the next tick. One console
 * process runs them; every pass is idempotent, so two processes running one at once only duplicate reads.
 */
import type { TDeps } from '../rpc/context';

/** Starts the job; the returned function stops the timer and waits for a pass under way. */
export function runEvery(
  logger: TDeps['logger'],
  name: string,
  everyMs: number,
  pass: () => Promise<void>,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = pass()
      .catch((err: unknown) => logger.error({ err }, `${name} failed`))
      .finally(() => {
        running = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
