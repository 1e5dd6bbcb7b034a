/**
 * Runs the deposit watcher every few seconds in the console role, one tick at a time. Several console processes
 * may each run it: every write it makes is idempotent and the credit step is won by one transaction only, so the
 * cost of duplicates is extra reads (a job engine with a singleton job replaces the timer in scale mode).
 */
import type { TDeps } from '../rpc/context';
import type { TDepositWatcher } from '../services/deposits/deposit-watcher';
import { runEvery } from './run-every';

/** Starts polling; the returned function stops the timer and waits for a tick under way. */
export function startDepositWatching(
  logger: TDeps['logger'],
  watcher: TDepositWatcher,
  everyMs: number,
): () => Promise<void> {
  // tick() logs and swallows per-chain failures itself; anything else is logged as "deposit watching failed".
  return runEvery(logger, 'deposit watching', everyMs, async () => {
    await watcher.tick();
  });
}
