/**
 * Runs the deposit watcher every few seconds in the console role, one tick at a time. Several console processes
 * may each run it: every write it makes is idempotent and the credit step is won by one transaction only, so the
 * cost of duplicates is extra reads (a job engine with a singleton job replaces the timer in scale mode).
 */
import type { TDepositWatcher } from '../services/deposits/deposit-watcher';

/** Starts polling; the returned function stops the timer and waits for a tick under way. */
export function startDepositWatching(
  watcher: TDepositWatcher,
  everyMs: number,
): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const pass = () => {
    if (running || stopped) return;
    // tick() logs and swallows per-chain failures itself.
    running = watcher
      .tick()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
      });
  };
  pass();
  const timer = setInterval(pass, everyMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
