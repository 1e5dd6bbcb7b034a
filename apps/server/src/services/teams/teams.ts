/** Team accounts: create, list, members, rename, note, the user code and the acting team's profile. */
import { randomInt } from 'node:crypto';
import {
  ERROR_CODES,
  MAX_OWNED_TEAMS,
  ROLE_PERMISSIONS,
  roleRank,
  type TParams,
  type TResult,
  type TTeam,
} from '@rpc/contract';
import { accountMembers, accounts, teamAuditLogs, users } from '@rpc/db';
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../lib/db-errors';
import { RpcError } from '../../rpc/errors';
import { writeAudit } from './audit-log';
import type { TTeamCaller, TTeamDeps } from './team-caller';
import { listTeamsOf, teamOf } from './team-rows';

type TDb = Pick<TTeamDeps, 'db' | 'clock'>;

/** hub_createTeam's rolling window: at most MAX_OWNED_TEAMS teams created in it, disbanded or not. */
const CREATED_WINDOW_MS = 30 * 86_400_000;

export async function createTeam(
  deps: TDb,
  caller: TTeamCaller,
  params: TParams<'hub_createTeam'>,
): Promise<TResult<'hub_createTeam'>> {
  const now = deps.clock.now();
  const teamId = await deps.db.transaction(async (tx) => {
    // The user's row serialises this user's team creations, so the owned-team limit holds under concurrency.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, caller.userId)).for('update');
    const [owned] = await tx
      .select({ n: count() })
      .from(accountMembers)
      .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
      .where(
        and(
          eq(accountMembers.userId, caller.userId),
          eq(accountMembers.role, 'owner'),
          eq(accounts.kind, 'team'),
          isNull(accounts.disbandedAt),
        ),
      );
    if ((owned?.n ?? 0) >= MAX_OWNED_TEAMS) throw new RpcError(ERROR_CODES.TEAM_OWNED_LIMIT);
    // Teams created in the last 30 days count too, disbanded ones included: every team is an account that may claim
    // the monthly free package, so creating and disbanding in a loop would otherwise be a free-RU tap.
    const [lately] = await tx
      .select({ n: count() })
      .from(teamAuditLogs)
      .where(
        and(
          eq(teamAuditLogs.actorUserId, caller.userId),
          // A literal, as in the partial index's predicate, so every plan can use that index.
          sql`${teamAuditLogs.action} = 'team.create'`,
          gt(teamAuditLogs.createdAt, new Date(now - CREATED_WINDOW_MS)),
        ),
      );
    if ((lately?.n ?? 0) >= MAX_OWNED_TEAMS) throw new RpcError(ERROR_CODES.TEAM_OWNED_LIMIT);
    return insertTeam(tx, { ...caller, name: params.teamName, note: params.note, at: now });
  });
  return (await teamOf(deps.db, caller.userId, teamId)) as TTeam;
}

/** A team account with its owner, and the first line of its audit log. Used by hub_createTeam and hub_registerTeam. */
export async function insertTeam(
  tx: Parameters<Parameters<TTeamDeps['db']['transaction']>[0]>[0],
  o: { userId: string; ip: string | null; name: string; note: string; at: number },
): Promise<string> {
  const [team] = await tx
    .insert(accounts)
    .values({ kind: 'team', name: o.name, note: o.note, createdAt: new Date(o.at) })
    .returning({ id: accounts.id });
  await tx.insert(accountMembers).values({
    accountId: team!.id,
    userId: o.userId,
    role: 'owner',
    createdAt: new Date(o.at),
  });
  await writeAudit(tx, {
    accountId: team!.id,
    actorUserId: o.userId,
    action: 'team.create',
    target: o.name,
    ip: o.ip,
    at: o.at,
  });
  return team!.id;
}

export async function getMyTeam(
  deps: TDb,
  caller: TTeamCaller,
  params: TParams<'hub_getMyTeam'>,
): Promise<TResult<'hub_getMyTeam'>> {
  const { list, total } = await listTeamsOf(deps.db, caller.userId, params);
  return { list, total, page: params.page, perPage: params.perPage };
}

export async function getTeamMembers(
  deps: TDb,
  caller: TTeamCaller,
): Promise<TResult<'hub_getTeamMembers'>> {
  const rows = await deps.db
    .select({
      userId: users.id,
      nickname: users.nickname,
      email: users.email,
      role: accountMembers.role,
      joinedAt: accountMembers.createdAt,
    })
    .from(accountMembers)
    .innerJoin(users, eq(users.id, accountMembers.userId))
    .where(eq(accountMembers.accountId, caller.account.id));
  const list = rows
    .map((r) => ({ ...r, joinedAt: r.joinedAt.getTime(), isYou: r.userId === caller.userId }))
    .sort((a, b) => roleRank(b.role) - roleRank(a.role) || a.joinedAt - b.joinedAt);
  return { list };
}

export async function editTeam(
  deps: TDb,
  caller: TTeamCaller,
  change: { name: string } | { note: string },
): Promise<{ success: true }> {
  await deps.db
    .update(accounts)
    .set(change)
    .where(and(eq(accounts.id, caller.account.id), eq(accounts.kind, 'team')));
  return { success: true };
}

/** Crockford base32 without I, L, O, U: easy to read out and type. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function newUserCode(): string {
  let code = '';
  for (let i = 0; i < 10; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

export async function getUserCode(
  deps: TDb,
  caller: TTeamCaller,
): Promise<TResult<'hub_getUserCode'>> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const [row] = await deps.db
      .select({ code: users.userCode })
      .from(users)
      .where(eq(users.id, caller.userId));
    if (row?.code) return { userCode: row.code };
    try {
      // Only where still unset: two first asks at once agree on the one code that won.
      await deps.db
        .update(users)
        .set({ userCode: newUserCode() })
        .where(and(eq(users.id, caller.userId), isNull(users.userCode)));
    } catch (err) {
      // 32^10 codes: a collision is next to impossible, and simply draws again.
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new Error('could not assign a user code');
}

export async function getTeamUserProfile(
  deps: TDb,
  caller: TTeamCaller,
): Promise<TResult<'hub_getTeamUserProfile'>> {
  if (caller.account.kind !== 'team') throw new RpcError(ERROR_CODES.TEAM_NOT_A_TEAM);
  const team = await teamOf(deps.db, caller.userId, caller.account.id);
  if (!team) throw new RpcError(ERROR_CODES.TEAM_FORBIDDEN);
  return { ...team, permissions: [...ROLE_PERMISSIONS[team.role]] };
}
