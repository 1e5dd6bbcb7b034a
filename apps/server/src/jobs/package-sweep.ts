/**
 * Runs the package sweep (expiry, auto-renewal, running-out warnings) every minute in the console role. Like the
 * usage prune, a plain unref'd timer while one console process runs the jobs; every step is idempotent, so two
 * processes sweeping at once only duplicate reads.
 */
import type { TDeps } from '../rpc/context';
import { sweepPackages } from '../services/wallet/sweep-packages';
import { runEvery } from './run-every';

export const PACKAGE_SWEEP_EVERY_MS = 60_000;

export function startPackageSweep(
  deps: TDeps,
  everyMs = PACKAGE_SWEEP_EVERY_MS,
): () => Promise<void> {
  return runEvery(deps.logger, 'package sweep', everyMs, async () => {
    const r = await sweepPackages(deps);
    if (r.expired + r.renewed + r.renewFailed > 0) deps.logger.info(r, 'packages swept');
  });
}
