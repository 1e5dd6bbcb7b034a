/**
 * The actions a team's audit log holds: every method the dispatcher logs (a write under an audited permission,
 * AUDITED_PERMISSIONS in the contract) and the lifecycle steps the team services write themselves. Each has a
 * readable label in locales/<lang>/team.json (actions.*); an action without one is shown as it is.
 */
import type { TFunction } from 'i18next';
import { AUDITED_PERMISSIONS, METHODS, TEAM_LIFECYCLE_ACTIONS } from '@rpc/contract';

export const TEAM_LOG_ACTIONS: readonly string[] = [
  ...TEAM_LIFECYCLE_ACTIONS,
  ...Object.values(METHODS)
    .filter((m) => m.auth === 'user' && AUDITED_PERMISSIONS.has(m.permission) && !m.readOnly)
    .map((m) => m.name),
];

/** i18n keys may not hold dots (i18next nests on them): team.create is actions.team_create. */
export function actionKey(action: string): string {
  return `actions.${action.replace(/\./g, '_')}`;
}

export function actionLabel(t: TFunction<'team'>, action: string): string {
  return t(actionKey(action), { defaultValue: action });
}
