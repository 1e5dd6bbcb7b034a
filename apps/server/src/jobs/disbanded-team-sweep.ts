/**
 * Runs the settling sweep of disbanded teams (money or arrears that reached a team after it was disbanded moves to
 * the owner's personal account) every minute in the console role. One pass at a time (run-every.ts);
 * each move re-reads the balance under both accounts' locks, so two processes sweeping at once move it once.
 */
import type { TDeps } from '../rpc/context';
import { settleDisbandedTeams } from '../services/teams/settle-disbanded-teams';
import { runEvery } from './run-every';

export const DISBANDED_TEAM_SWEEP_EVERY_MS = 60_000;

export function startDisbandedTeamSweep(
  deps: TDeps,
  everyMs = DISBANDED_TEAM_SWEEP_EVERY_MS,
): () => Promise<void> {
  return runEvery(deps.logger, 'disbanded team sweep', everyMs, async () => {
    const r = await settleDisbandedTeams(deps);
    if (r.settled > 0) deps.logger.info(r, 'disbanded teams settled');
  });
}
