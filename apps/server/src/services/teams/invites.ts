/**
 * Team invitations as the team sends them: by user code or e-mail address (hub_addMember), listed and withdrawn by
 * the team. The invited user answers them in answer-invite.ts.
 */
import {
  ERROR_CODES,
  GRANTABLE_ROLES,
  INVITE_TTL_DAYS,
  roleAllows,
  roleRank,
  TEAM_ROLES,
  MAX_TEAM_MEMBERS,
  METHODS,
  type TLanguage,
  type TParams,
  type TResult,
  type TTeamInvite,
} from '@rpc/contract';
import { accountMembers, accounts, teamInvites, users, type TExecutor } from '@rpc/db';
import { aliasedTable, and, asc, count, eq, gt, lte, or, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../lib/db-errors';
import { RpcError } from '../../rpc/errors';
import { renderTeamInviteMail } from '../../mail/templates/team';
import type { TTeamCaller, TTeamDeps } from './team-caller';
import { displayName, teamName } from './team-rows';

const DAY_MS = 86_400_000;

/**
 * Whether an invitation's sender may still grant its role: still a member of the team, of a rank above the role
 * and with the `members` permission (the owner grants admin, billing and viewer; an admin billing and viewer). An
 * invitation from someone removed, gone or demoted since is neither listed nor accepted (answer-invite.ts), and is
 * cancelled when the team next invites (so it holds no pending slot).
 */
export function inviterMayGrant() {
  return sql`exists (select 1 from ${accountMembers} as inviter where inviter.account_id = ${teamInvites.accountId} and inviter.user_id = ${teamInvites.inviterUserId} and (inviter.role, ${teamInvites.role}) in (${GRANT_PAIRS}))`;
}

/**
 * The (inviter's role, granted role) pairs the rank rule allows, as SQL row values, made from the contract's
 * permission matrix and ranks (the same rule hub_addMember checks in TypeScript), not written out a second time.
 */
const grantPairs = TEAM_ROLES.filter((inviter) =>
  roleAllows(inviter, METHODS.hub_addMember.permission ?? 'owner'),
).flatMap((inviter) =>
  GRANTABLE_ROLES.filter((role) => roleRank(role) < roleRank(inviter)).map(
    (role) => sql`(${sql.raw(`'${inviter}'`)}, ${sql.raw(`'${role}'`)})`,
  ),
);
// A matrix that lets nobody grant anything would make `in ()`, which PostgreSQL refuses at every query: fail at start.
if (grantPairs.length === 0) throw new Error('the team permission matrix lets no role invite');
const GRANT_PAIRS = sql.join(grantPairs, sql`, `);

/** A team's pending invitations whose sender may no longer grant their role become 'cancelled'. */
export async function cancelOrphanInvites(
  db: TExecutor,
  now: number,
  teamId: string,
): Promise<void> {
  await db
    .update(teamInvites)
    .set({ status: 'cancelled', decidedAt: new Date(now) })
    .where(
      and(
        eq(teamInvites.accountId, teamId),
        eq(teamInvites.status, 'pending'),
        sql`not ${inviterMayGrant()}`,
      ),
    );
}

/** Pending invitations past their expiry become 'expired' (so the pending-unique indexes free up). */
async function lapseInvites(db: TExecutor, now: number, accountId?: string): Promise<void> {
  await db
    .update(teamInvites)
    .set({ status: 'expired', decidedAt: new Date(now) })
    .where(
      and(
        eq(teamInvites.status, 'pending'),
        lte(teamInvites.expiresAt, new Date(now)),
        accountId ? eq(teamInvites.accountId, accountId) : undefined,
      ),
    );
}

export async function addMember(
  deps: TTeamDeps,
  caller: TTeamCaller,
  params: TParams<'hub_addMember'>,
): Promise<TResult<'hub_addMember'>> {
  // The rank rule (docs/decisions/teams.md): a member grants only roles below their own, so an admin cannot make
  // admins (role changes are the owner's alone, hub_setMemberRole).
  if (roleRank(params.role) >= roleRank(caller.account.role))
    throw new RpcError(ERROR_CODES.TEAM_RANK_FORBIDDEN);
  await deps.throttle.enforce({
    action: 'teamInvite',
    email: params.email ?? null,
    ip: caller.ip,
    limitType: METHODS.hub_addMember.limitType ?? 'type1',
  });
  const now = deps.clock.now();
  const [me] = await deps.db
    .select({ email: users.email, name: displayName })
    .from(users)
    .where(eq(users.id, caller.userId));
  const invitee = params.userCode
    ? await findUser(deps.db, eq(users.userCode, params.userCode))
    : await findUser(deps.db, eq(users.email, params.email!));
  if (params.userCode && !invitee) throw new RpcError(ERROR_CODES.TEAM_USER_CODE_UNKNOWN);
  if (invitee?.id === caller.userId || (params.email && params.email === me?.email)) {
    throw new RpcError(ERROR_CODES.TEAM_INVITE_SELF);
  }

  const teamId = caller.account.id;
  let row;
  try {
    row = await deps.db.transaction(async (tx) => {
      // The team's row serialises invitations and joins, so the member limit holds under concurrency.
      await tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(eq(accounts.id, teamId))
        .for('update');
      await lapseInvites(tx, now, teamId);
      await cancelOrphanInvites(tx, now, teamId);
      if (invitee) {
        const [member] = await tx
          .select({ id: accountMembers.userId })
          .from(accountMembers)
          .where(and(eq(accountMembers.accountId, teamId), eq(accountMembers.userId, invitee.id)));
        if (member) throw new RpcError(ERROR_CODES.TEAM_ALREADY_MEMBER);
        // The same person invited once by code and once by address is still one pending invitation.
        if (invitee.email) {
          const [byMail] = await tx
            .select({ id: teamInvites.id })
            .from(teamInvites)
            .where(
              and(
                eq(teamInvites.accountId, teamId),
                eq(teamInvites.status, 'pending'),
                or(
                  eq(teamInvites.inviteeEmail, invitee.email),
                  eq(teamInvites.inviteeUserId, invitee.id),
                ),
              ),
            );
          if (byMail) throw new RpcError(ERROR_CODES.TEAM_INVITE_PENDING);
        }
      }
      const [members] = await tx
        .select({ n: count() })
        .from(accountMembers)
        .where(eq(accountMembers.accountId, teamId));
      const [pending] = await tx
        .select({ n: count() })
        .from(teamInvites)
        .where(and(eq(teamInvites.accountId, teamId), eq(teamInvites.status, 'pending')));
      if ((members?.n ?? 0) + (pending?.n ?? 0) >= MAX_TEAM_MEMBERS) {
        throw new RpcError(ERROR_CODES.TEAM_MEMBER_LIMIT);
      }
      const [inserted] = await tx
        .insert(teamInvites)
        .values({
          accountId: teamId,
          inviterUserId: caller.userId,
          inviteeUserId: invitee?.id ?? null,
          inviteeEmail: params.email ?? null,
          role: params.role,
          createdAt: new Date(now),
          expiresAt: new Date(now + INVITE_TTL_DAYS * DAY_MS),
        })
        .returning();
      return inserted!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new RpcError(ERROR_CODES.TEAM_INVITE_PENDING, { cause: err });
    throw err;
  }

  const mailTo = params.email ?? (invitee?.confirmed ? invitee.email : null);
  if (mailTo) {
    const mail = renderTeamInviteMail(invitee?.language ?? 'en', {
      teamName: await teamName(deps.db, teamId),
      inviter: me?.name ?? '',
      link: `${deps.config.publicUrl}/invite-member`,
      days: INVITE_TTL_DAYS,
    });
    await deps.mailer.send({ ...mail, to: mailTo }).catch((err: unknown) => {
      deps.logger.error({ err }, 'team invitation mail failed');
    });
  }
  return {
    inviteId: row.id,
    invitee: params.email ?? params.userCode ?? '',
    role: row.role as TTeamInvite['role'],
    invitedBy: me?.name ?? '',
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
  };
}

async function findUser(db: TExecutor, where: ReturnType<typeof eq>) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      language: users.language,
      confirmedAt: users.mailConfirmedAt,
    })
    .from(users)
    .where(where)
    .limit(1);
  return row
    ? { ...row, language: row.language as TLanguage, confirmed: row.confirmedAt !== null }
    : undefined;
}

export async function getTeamInvites(
  deps: TTeamDeps,
  caller: TTeamCaller,
): Promise<TResult<'hub_getTeamInvites'>> {
  const invitee = aliasedTable(users, 'invitee');
  const rows = await deps.db
    .select({
      inviteId: teamInvites.id,
      inviteeEmail: teamInvites.inviteeEmail,
      inviteeUserEmail: invitee.email,
      inviteeCode: invitee.userCode,
      role: teamInvites.role,
      invitedBy: sql<string>`coalesce(nullif(${users.nickname}, ''), ${users.email}, '')`,
      createdAt: teamInvites.createdAt,
      expiresAt: teamInvites.expiresAt,
    })
    .from(teamInvites)
    .leftJoin(users, eq(users.id, teamInvites.inviterUserId))
    .leftJoin(invitee, eq(invitee.id, teamInvites.inviteeUserId))
    .where(
      and(
        eq(teamInvites.accountId, caller.account.id),
        eq(teamInvites.status, 'pending'),
        gt(teamInvites.expiresAt, new Date(deps.clock.now())),
        // Not one whose sender can no longer grant it (cancelled at the team's next change or invitation).
        inviterMayGrant(),
      ),
    )
    .orderBy(asc(teamInvites.createdAt));
  return {
    list: rows.map((r) => ({
      inviteId: r.inviteId,
      invitee: r.inviteeEmail ?? r.inviteeCode ?? r.inviteeUserEmail ?? '',
      role: r.role as TTeamInvite['role'],
      invitedBy: r.invitedBy ?? '',
      createdAt: r.createdAt.getTime(),
      expiresAt: r.expiresAt.getTime(),
    })),
  };
}

export async function cancelInvite(
  deps: TTeamDeps,
  caller: TTeamCaller,
  params: TParams<'hub_cancelInvite'>,
): Promise<{ success: true }> {
  const [row] = await deps.db
    .update(teamInvites)
    .set({ status: 'cancelled', decidedAt: new Date(deps.clock.now()) })
    .where(
      and(
        eq(teamInvites.id, params.inviteId),
        eq(teamInvites.accountId, caller.account.id),
        eq(teamInvites.status, 'pending'),
      ),
    )
    .returning({ id: teamInvites.id });
  if (!row) throw new RpcError(ERROR_CODES.NOT_FOUND);
  return { success: true };
}
