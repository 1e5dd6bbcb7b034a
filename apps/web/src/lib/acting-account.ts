/**
 * The account the console acts for (STYLE "Growing" 7): personal, or one team with the caller's role in it.
 * Switching clears the cache of account data, and `useCan` answers what the acting role allows (SPEC §6).
 */
import type { TPermission, TTeamRole } from '@rpc/contract';
import { TEAM_ROLES, roleAllows } from '@rpc/contract';
import type { QueryClient } from '@tanstack/react-query';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { HOME_PATH } from './guard';
import { useLocalizedNavigate } from './locale-path';
import { callRpc } from './rpc-client';
import type { TSessionState } from './session';
import {
  chooseTeam,
  choosePersonal,
  clearActingAccount,
  setLoginType,
  useSession,
} from './session';

/** "personal", "team:<id>", or "none" before a login type is known. */
export function actingAccountKey(state: Pick<TSessionState, 'loginType' | 'teamId'>): string {
  if (state.loginType === 'team' && state.teamId) return `team:${state.teamId}`;
  return state.loginType === 'personal' ? 'personal' : 'none';
}

export function useActingAccountKey(): string {
  return useSession(actingAccountKey);
}

/** A role name from the profile's team list (typed as a plain string there), if it is one the contract knows. */
export function asTeamRole(role: string | undefined | null): TTeamRole | null {
  return role && (TEAM_ROLES as readonly string[]).includes(role) ? (role as TTeamRole) : null;
}

// --- The acting team's profile and what its role allows ---

export const ACTING_TEAM_QUERY_KEY = ['acting-team'] as const;

export function getActingTeamQueryOptions(teamId: string) {
  return queryOptions({
    queryKey: [...ACTING_TEAM_QUERY_KEY, teamId],
    // The request client sends the team cookie as X-Team-Id; the key names the team so caches never mix.
    queryFn: ({ signal }) => callRpc('hub_getTeamUserProfile', {}, { signal, hideError: true }),
    staleTime: 60_000,
  });
}

/** hub_getTeamUserProfile for the acting team; idle in a personal login. */
export function useActingTeam() {
  const teamId = useSession((s) => (s.loginType === 'team' ? s.teamId : null));
  return useQuery({ ...getActingTeamQueryOptions(teamId ?? ''), enabled: !!teamId });
}

/**
 * Whether the acting account may do something needing `permission`. A personal login is its own owner: always
 * true. In a team the server's answer (hub_getTeamUserProfile) decides; until it arrives the role from the
 * profile's team list does; with neither, nothing is offered.
 */
export function useCan(permission: TPermission): boolean {
  const isTeam = useSession((s) => s.loginType === 'team' && !!s.teamId);
  const listedRole = useSession((s) =>
    asTeamRole(s.user?.teamList.find((team) => team.teamId === s.teamId)?.role),
  );
  const profile = useActingTeam();
  if (!isTeam) return true;
  if (profile.data) return profile.data.permissions.includes(permission);
  return listedRole ? roleAllows(listedRole, permission) : false;
}

// --- Switching ---

export type TActingTarget = { kind: 'personal' } | { kind: 'team'; teamId: string };

/** Sets the cookies of the new acting account and drops every cached answer of the old one. */
export function switchActingAccount(queryClient: QueryClient, target: TActingTarget): void {
  if (target.kind === 'personal') {
    choosePersonal();
  } else {
    chooseTeam(target.teamId);
    setLoginType('team');
  }
  queryClient.clear();
}

/** Switches the acting account and opens the endpoint page (SPEC §6, the header switcher, choose-team). */
export function useSwitchAccount(): (target: TActingTarget) => void {
  const queryClient = useQueryClient();
  const navigate = useLocalizedNavigate();
  return useCallback(
    (target) => {
      switchActingAccount(queryClient, target);
      navigate(HOME_PATH, { replace: true });
    },
    [queryClient, navigate],
  );
}

/**
 * After the user left (or disbanded) the team the console acts for: forget the acting account, reload the team
 * list, and let the guard decide from /rpc/endpoint (choose-team when other teams remain, else personal).
 */
export function useLeaveActingTeam(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useLocalizedNavigate();
  return useCallback(async () => {
    await clearActingAccount();
    queryClient.clear();
    navigate(HOME_PATH, { replace: true });
  }, [queryClient, navigate]);
}
