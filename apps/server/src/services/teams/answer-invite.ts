/**
 * Answering invitations: the invited user lists (hub_getMyInvite), accepts or declines them. An invitation reaches a
 * user through their user id, or through their e-mail address once it is confirmed.
 */
import { ERROR_CODES, type TParams, type TResult, type TTeamInvite } from '@rpc/contract';
import { accountMembers, accounts, teamInvites, users, type TExecutor } from '@rpc/db';
import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { RpcError } from '../../rpc/errors';
import { raiseNotice } from '../notices/raise-notice';
import { writeAudit } from './audit-log';
import { inviterMayGrant } from './invites';
import type { TTeamCaller, TTeamDeps } from './team-caller';
import { teamName, userName } from './team-rows';

/** Invitations addressed to a user: by id, or by their confirmed e-mail address; pending and not expired. */
async function myInvitesWhere(db: TExecutor, userId: string, now: number) {
  const [me] = await db
    .select({ email: users.email, confirmedAt: users.mailConfirmedAt })
    .from(users)
    .where(eq(users.id, userId));
  const byMail = me?.email && me.confirmedAt ? eq(teamInvites.inviteeEmail, me.email) : undefined;
  return and(
    byMail
      ? or(eq(teamInvites.inviteeUserId, userId), byMail)
      : eq(teamInvites.inviteeUserId, userId),
    eq(teamInvites.status, 'pending'),
    gt(teamInvites.expiresAt, new Date(now)),
    isNull(accounts.disbandedAt),
    inviterMayGrant(),
  );
}

export async function getMyInvite(
  deps: TTeamDeps,
  caller: TTeamCaller,
): Promise<TResult<'hub_getMyInvite'>> {
  const where = await myInvitesWhere(deps.db, caller.userId, deps.clock.now());
  const rows = await deps.db
    .select({
      inviteId: teamInvites.id,
      teamId: accounts.id,
      teamName: accounts.name,
      invitedBy: sql<string>`coalesce(nullif(${users.nickname}, ''), ${users.email}, '')`,
      role: teamInvites.role,
      createdAt: teamInvites.createdAt,
      expiresAt: teamInvites.expiresAt,
    })
    .from(teamInvites)
    .innerJoin(accounts, eq(accounts.id, teamInvites.accountId))
    .leftJoin(users, eq(users.id, teamInvites.inviterUserId))
    .where(where)
    .orderBy(asc(teamInvites.createdAt));
  return {
    list: rows.map((r) => ({
      ...r,
      invitedBy: r.invitedBy ?? '',
      role: r.role as TTeamInvite['role'],
      createdAt: r.createdAt.getTime(),
      expiresAt: r.expiresAt.getTime(),
    })),
  };
}

/** Whether a user has an invitation to answer (the profile's hasInvite). */
export async function hasPendingInvite(
  db: TExecutor,
  userId: string,
  now: number,
): Promise<boolean> {
  const where = await myInvitesWhere(db, userId, now);
  const [row] = await db
    .select({ id: teamInvites.id })
    .from(teamInvites)
    .innerJoin(accounts, eq(accounts.id, teamInvites.accountId))
    .where(where)
    .limit(1);
  return row !== undefined;
}

async function takeInvite(tx: TExecutor, userId: string, inviteId: string, now: number) {
  const where = await myInvitesWhere(tx, userId, now);
  const [invite] = await tx
    .select({ id: teamInvites.id, accountId: teamInvites.accountId, role: teamInvites.role })
    .from(teamInvites)
    .innerJoin(accounts, eq(accounts.id, teamInvites.accountId))
    .where(and(where, eq(teamInvites.id, inviteId)))
    .for('update', { of: teamInvites });
  if (!invite) throw new RpcError(ERROR_CODES.TEAM_INVITE_INVALID);
  return invite;
}

export async function approveInvite(
  deps: TTeamDeps,
  caller: TTeamCaller,
  params: TParams<'hub_approveInvite'>,
): Promise<TResult<'hub_approveInvite'>> {
  const now = deps.clock.now();
  const { result, notices } = await deps.db.transaction(async (tx) => {
    const invite = await takeInvite(tx, caller.userId, params.inviteId, now);
    await tx
      .update(teamInvites)
      .set({ status: 'approved', decidedAt: new Date(now), inviteeUserId: caller.userId })
      .where(eq(teamInvites.id, invite.id));
    const [name, team] = [await userName(tx, caller.userId), await teamName(tx, invite.accountId)];
    await writeAudit(tx, {
      accountId: invite.accountId,
      actorUserId: caller.userId,
      action: 'team.join',
      target: name,
      detail: { role: invite.role },
      ip: caller.ip,
      at: now,
    });
    // Raised before the new member joins: the owner and admins hear of it, not the new member (even as admin).
    const raised = await raiseNotice({
      db: tx,
      at: now,
      type: 'team_approve_invite',
      accountId: invite.accountId,
      title: 'Invitation accepted',
      content: `${name} joined the team ${team}.`,
      expand: { teamId: invite.accountId, teamName: team, userName: name },
    });
    const inserted = await tx
      .insert(accountMembers)
      .values({
        accountId: invite.accountId,
        userId: caller.userId,
        role: invite.role,
        createdAt: new Date(now),
      })
      .onConflictDoNothing()
      .returning({ role: accountMembers.role });
    if (inserted.length === 0) throw new RpcError(ERROR_CODES.TEAM_ALREADY_MEMBER);
    return {
      result: { teamId: invite.accountId, teamName: team, role: invite.role },
      notices: raised,
    };
  });
  deps.noticeBus.push(notices);
  return result;
}

export async function rejectInvite(
  deps: TTeamDeps,
  caller: TTeamCaller,
  params: TParams<'hub_rejectInvite'>,
): Promise<{ success: true }> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const invite = await takeInvite(tx, caller.userId, params.inviteId, now);
    await tx
      .update(teamInvites)
      .set({ status: 'rejected', decidedAt: new Date(now), inviteeUserId: caller.userId })
      .where(eq(teamInvites.id, invite.id));
    await writeAudit(tx, {
      accountId: invite.accountId,
      actorUserId: caller.userId,
      action: 'team.decline',
      target: await userName(tx, caller.userId),
      ip: caller.ip,
      at: now,
    });
  });
  return { success: true };
}
