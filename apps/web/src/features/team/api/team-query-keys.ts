/**
 * Every team query lives under TEAMS_QUERY_KEY, then the signed-in user: team management (/rpc/team) names the
 * team in its params and works from any login, so the key carries the user, not the acting account.
 */
import type { QueryClient } from '@tanstack/react-query';
import { ACTING_TEAM_QUERY_KEY } from '../../../lib/acting-account';
import { refreshUser, useSession } from '../../../lib/session';

export const TEAMS_QUERY_KEY = ['teams'] as const;

export function useTeamsScope(): string {
  return useSession((s) => s.user?.id ?? '');
}

export function myTeamsQueryKey(scope: string) {
  return [...TEAMS_QUERY_KEY, scope, 'mine'] as const;
}

export function teamQueryKey(scope: string, teamId: string) {
  return [...TEAMS_QUERY_KEY, scope, 'team', teamId] as const;
}

/**
 * The teams themselves changed (created, renamed, joined, left, handed over): the team lists, the acting team's
 * profile and the session profile's teamList (the switcher and the guard read it) all reload. `leftTeamId`: the
 * user is no longer in that team.
 */
export async function onTeamsChanged(queryClient: QueryClient, leftTeamId?: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: TEAMS_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: ACTING_TEAM_QUERY_KEY }),
    // Not while acting for the team just left: that header is stale now, and the page resets the acting
    // account itself (clearActingAccount fetches the profile without it).
    isActingFor(leftTeamId) ? undefined : refreshUser().catch(() => undefined),
  ]);
}

function isActingFor(teamId: string | undefined): boolean {
  const { loginType, teamId: acting } = useSession.getState();
  return !!teamId && loginType === 'team' && acting === teamId;
}
