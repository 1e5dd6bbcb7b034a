/**
 * Who may call what, declared once (docs/decisions/teams.md). Every signed-in method names one permission in its
 * contract; the dispatcher checks the caller's role on the acting account against this matrix before the handler
 * runs, so no service ever asks for a role. A personal account's user is its owner and holds every permission.
 */

/** Roles of a member in a team account, highest first. */
export const TEAM_ROLES = ['owner', 'admin', 'billing', 'viewer'] as const;
export type TTeamRole = (typeof TEAM_ROLES)[number];
/** Roles an invitation or a role change may grant (ownership moves only with hub_setMemberRole by the owner). */
export const GRANTABLE_ROLES = ['admin', 'billing', 'viewer'] as const;
export type TGrantableRole = (typeof GRANTABLE_ROLES)[number];

export const PERMISSIONS = [
  /** about the caller's own user (profile, notices, language, invitations): any role */
  'self',
  /** reads the account's keys, usage, limits, packages and balance */
  'view',
  /** creates, changes and deletes API keys */
  'keys',
  /** buys, deposits, cards, invoices, spend limits, billing history */
  'billing',
  /** invites and removes members, renames the team, reads the audit log */
  'members',
  /** disbands the team and changes roles */
  'owner',
] as const;
export type TPermission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Readonly<Record<TTeamRole, readonly TPermission[]>> = {
  owner: PERMISSIONS,
  admin: ['self', 'view', 'keys', 'billing', 'members'],
  billing: ['self', 'view', 'billing'],
  viewer: ['self', 'view'],
};

export function roleAllows(role: TTeamRole, permission: TPermission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** Rank of a role: a member acts on members of a lower rank only (removing, changing roles). */
export function roleRank(role: TTeamRole): number {
  return TEAM_ROLES.length - TEAM_ROLES.indexOf(role);
}

/** Permissions whose successful calls made as a team are written to the team's audit log by the dispatcher. */
export const AUDITED_PERMISSIONS: ReadonlySet<TPermission> = new Set([
  'keys',
  'billing',
  'members',
  'owner',
]);
