/**
 * Runs the minute-retention prune (and the expired sign-in challenges' and the request log's) at start and then
 * hourly, in the console role. A plain unref'd timer is enough
 * while there is one console process; in scale mode a job engine over PostgreSQL (pg-boss) replaces it, so
 * several console instances do not each run the same prune (harmless, since deletes are idempotent, but wasteful).
 */
import type { TDeps } from '../rpc/context';
import { pruneAuthChallenges } from '../services/sign-in/prune-challenges';
import { pruneRequestLogs } from '../services/request-logs/prune-request-logs';
import { pruneUsage } from '../services/usage/prune-usage';
import { runEvery } from './run-every';

export const USAGE_PRUNE_EVERY_MS = 3_600_000;

/** Starts pruning; the returned function stops the timer and waits for a pass under way. */
export function startUsagePruning(
  deps: Pick<TDeps, 'db' | 'clock' | 'logger' | 'config'>,
  everyMs = USAGE_PRUNE_EVERY_MS,
): () => Promise<void> {
  return runEvery(deps.logger, 'usage prune', everyMs, async () => {
    const now = deps.clock.now();
    const r = await pruneUsage({
      db: deps.db,
      now,
      retentionDays: deps.config.minuteRetentionDays,
    });
    if (r.minuteRows > 0 || r.batches > 0) deps.logger.info(r, 'usage minute rows pruned');
    const challenges = await pruneAuthChallenges(deps.db, now);
    if (challenges > 0) deps.logger.info({ challenges }, 'expired sign-in challenges pruned');
    const logs = await pruneRequestLogs({
      db: deps.db,
      now,
      retentionHours: deps.config.requestLogRetentionHours,
    });
    if (logs.expired + logs.overflow + logs.drops > 0)
      deps.logger.info(logs, 'request log entries pruned');
  });
}
