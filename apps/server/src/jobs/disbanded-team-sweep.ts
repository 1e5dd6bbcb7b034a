/**
 * Runs the settling sweep of disbanded teams (money or arrears that reached a team after it was disbanded moves to
 * the owner's personal account) every minute in the console role. Like the package sweep, a plain unref'd timer;
 * each move re-reads the balance under both accounts' locks, so two processes sweeping at once move it once.
 */
import type { TDeps } from '../rpc/context';
import { settleDisbandedTeams } from '../services/teams/settle-disbanded-teams';

export const DISBANDED_TEAM_SWEEP_EVERY_MS = 60_000;

export function startDisbandedTeamSweep(
  deps: TDeps,
  everyMs = DISBANDED_TEAM_SWEEP_EVERY_MS,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const pass = () => {
    if (running) return;
    running = settleDisbandedTeams(deps)
      .then((r) => {
        if (r.settled > 0) deps.logger.info(r, 'disbanded teams settled');
      })
      .catch((err: unknown) => deps.logger.error({ err }, 'disbanded team sweep failed'))
      .finally(() => {
        running = undefined;
      });
  };
  pass();
  const timer = setInterval(pass, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
