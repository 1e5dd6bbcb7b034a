/** Members leave, are removed, change roles; the owner disbands. Notices per SPEC §4 to the people concerned. */
import { ERROR_CODES, roleRank, type TParams } from '@rpc/contract';
import {
  accountMembers,
  accounts,
  apiKeys,
  ruPackages,
  teamInvites,
  type TExecutor,
} from '@rpc/db';
import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm';
import { RpcError } from '../../rpc/errors';
import { publishKeyChange } from '../api-keys/api-key-rows';
import { raiseNotice } from '../notices/raise-notice';
import { writeAudit } from './audit-log';
import { cancelOrphanInvites } from './invites';
import type { TTeamCaller, TTeamDeps } from './team-caller';
import { teamName, userName } from './team-rows';
import { lockTeamAndOwner, moveTeamBalance } from './team-wallet';

type TOk = { success: true };

/**
 * The caller's and the target's membership rows, locked in one order (by user id, so two members acting on each
 * other cannot deadlock). The caller's role is re-read here: the dispatcher read it before this transaction, and
 * a handover or a demotion may have committed since.
 */
async function lockPair(db: TExecutor, teamId: string, callerId: string, targetId: string) {
  const rows = await db
    .select({ userId: accountMembers.userId, role: accountMembers.role })
    .from(accountMembers)
    .where(
      and(
        eq(accountMembers.accountId, teamId),
        inArray(accountMembers.userId, [callerId, targetId]),
      ),
    )
    .orderBy(asc(accountMembers.userId))
    .for('update');
  return {
    me: rows.find((r) => r.userId === callerId),
    target: rows.find((r) => r.userId === targetId),
  };
}

/**
 * The target of a member action: another member whose rank is below the caller's (a data rule about the target,
 * not an access check: who may call the method at all is the contract's permission).
 */
async function lowerMember(db: TExecutor, caller: TTeamCaller, userId: string) {
  if (userId === caller.userId) throw new RpcError(ERROR_CODES.TEAM_RANK_FORBIDDEN);
  const { me, target } = await lockPair(db, caller.account.id, caller.userId, userId);
  // Removed or demoted since the call began: the role it was admitted with no longer holds.
  if (me?.role !== caller.account.role) throw new RpcError(ERROR_CODES.TEAM_FORBIDDEN);
  if (!target) throw new RpcError(ERROR_CODES.NOT_FOUND);
  if (roleRank(target.role) >= roleRank(caller.account.role)) {
    throw new RpcError(ERROR_CODES.TEAM_RANK_FORBIDDEN);
  }
  return target;
}

export async function removeMember(
  deps: TTeamDeps,
  caller: TTeamCaller,
  params: TParams<'hub_removeMember'>,
): Promise<TOk> {
  const now = deps.clock.now();
  const notices = await deps.db.transaction(async (tx) => {
    await lowerMember(tx, caller, params.userId);
    await tx
      .delete(accountMembers)
      .where(
        and(
          eq(accountMembers.accountId, caller.account.id),
          eq(accountMembers.userId, params.userId),
        ),
      );
    await cancelOrphanInvites(tx, now, caller.account.id);
    const team = await teamName(tx, caller.account.id);
    return raiseNotice({
      db: tx,
      at: now,
      type: 'team_remove_member',
      userId: params.userId,
      accountId: caller.account.id,
      title: 'Removed from a team',
      content: `You were removed from the team ${team}.`,
      expand: { teamId: caller.account.id, teamName: team },
    });
  });
  deps.noticeBus.push(notices);
  return { success: true };
}

export async function setMemberRole(
  deps: TTeamDeps,
  caller: TTeamCaller,
  params: TParams<'hub_setMemberRole'>,
): Promise<TOk> {
  await deps.db.transaction(async (tx) => {
    await lowerMember(tx, caller, params.userId);
    const teamId = caller.account.id;
    await tx
      .update(accountMembers)
      .set({ role: params.role })
      .where(and(eq(accountMembers.accountId, teamId), eq(accountMembers.userId, params.userId)));
    // Handing the team over: one owner at all times, and the former owner stays as admin.
    if (params.role === 'owner') {
      await tx
        .update(accountMembers)
        .set({ role: 'admin' })
        .where(and(eq(accountMembers.accountId, teamId), eq(accountMembers.userId, caller.userId)));
    }
    await cancelOrphanInvites(tx, deps.clock.now(), teamId);
  });
  return { success: true };
}

export async function leaveTeam(deps: TTeamDeps, caller: TTeamCaller): Promise<TOk> {
  if (caller.account.role === 'owner') throw new RpcError(ERROR_CODES.TEAM_OWNER_CANNOT_LEAVE);
  const now = deps.clock.now();
  const teamId = caller.account.id;
  const notices = await deps.db.transaction(async (tx) => {
    // Never the owner's row, even when the team was handed to the caller after the dispatcher read its role.
    const deleted = await tx
      .delete(accountMembers)
      .where(
        and(
          eq(accountMembers.accountId, teamId),
          eq(accountMembers.userId, caller.userId),
          ne(accountMembers.role, 'owner'),
        ),
      )
      .returning({ userId: accountMembers.userId });
    if (deleted.length === 0) {
      const [still] = await tx
        .select({ role: accountMembers.role })
        .from(accountMembers)
        .where(and(eq(accountMembers.accountId, teamId), eq(accountMembers.userId, caller.userId)));
      throw new RpcError(still ? ERROR_CODES.TEAM_OWNER_CANNOT_LEAVE : ERROR_CODES.TEAM_FORBIDDEN);
    }
    await cancelOrphanInvites(tx, now, teamId);
    const [name, team] = [await userName(tx, caller.userId), await teamName(tx, teamId)];
    await writeAudit(tx, {
      accountId: teamId,
      actorUserId: caller.userId,
      action: 'team.leave',
      target: name,
      ip: caller.ip,
      at: now,
    });
    return raiseNotice({
      db: tx,
      at: now,
      type: 'team_member_leave',
      accountId: teamId,
      title: 'A member left the team',
      content: `${name} left the team ${team}.`,
      expand: { teamId, teamName: team, userName: name },
    });
  });
  deps.noticeBus.push(notices);
  return { success: true };
}

/**
 * The team's wallet at disbanding, its row and the owner's personal account row locked (lockTeamAndOwner).
 * Arrears are refused (10313): written off they would be a free tap (run up pay-as-you-go debt, disband), and
 * nobody can pay a disbanded team's debt.
 */
async function walletAtDisband(
  tx: TExecutor,
  teamId: string,
  ownerUserId: string,
): Promise<{ cents: number; ownerAccountId: string }> {
  const wallet = await lockTeamAndOwner(tx, teamId, ownerUserId);
  if (!wallet) throw new RpcError(ERROR_CODES.TEAM_FORBIDDEN);
  if (wallet.cents < 0) throw new RpcError(ERROR_CODES.TEAM_IN_ARREARS);
  return wallet;
}

/**
 * Disbands a team: members removed (each but the owner told with team_disband), keys deleted and dropped by the
 * gateways, invitations withdrawn, auto-renewal off, money left moved to the owner's personal wallet; refused in
 * arrears (walletAtDisband). The account row, its ledgers, invoices and audit log stay.
 */
export async function deleteTeam(deps: TTeamDeps, caller: TTeamCaller): Promise<TOk> {
  const now = deps.clock.now();
  const teamId = caller.account.id;
  const { keyIds, notices } = await deps.db.transaction(async (tx) => {
    // Still the owner (the role was read before this transaction; a handover may have committed since).
    const [me] = await tx
      .select({ role: accountMembers.role })
      .from(accountMembers)
      .where(and(eq(accountMembers.accountId, teamId), eq(accountMembers.userId, caller.userId)))
      .for('update');
    if (me?.role !== 'owner') throw new RpcError(ERROR_CODES.TEAM_FORBIDDEN);
    const { cents, ownerAccountId } = await walletAtDisband(tx, teamId, caller.userId);
    const [team] = await tx
      .update(accounts)
      .set({ disbandedAt: new Date(now) })
      .where(and(eq(accounts.id, teamId), eq(accounts.kind, 'team'), isNull(accounts.disbandedAt)))
      .returning({ name: accounts.name });
    if (!team) throw new RpcError(ERROR_CODES.TEAM_FORBIDDEN);
    const members = await tx
      .delete(accountMembers)
      .where(eq(accountMembers.accountId, teamId))
      .returning({ userId: accountMembers.userId });
    const keys = await tx
      .update(apiKeys)
      .set({ deletedAt: new Date(now), updatedAt: new Date(now) })
      .where(and(eq(apiKeys.accountId, teamId), isNull(apiKeys.deletedAt)))
      .returning({ id: apiKeys.id });
    await tx
      .update(teamInvites)
      .set({ status: 'cancelled', decidedAt: new Date(now) })
      .where(and(eq(teamInvites.accountId, teamId), eq(teamInvites.status, 'pending')));
    await tx
      .update(ruPackages)
      .set({ autoRenew: false })
      .where(and(eq(ruPackages.accountId, teamId), ne(ruPackages.autoRenew, false)));
    await writeAudit(tx, {
      accountId: teamId,
      actorUserId: caller.userId,
      action: 'team.disband',
      target: team.name,
      detail: { members: members.length, keys: keys.length },
      ip: caller.ip,
      at: now,
    });
    // Money left moves to the owner's personal wallet (ref disband:<team id>), so nothing is stranded where nobody
    // can act; money arriving later is moved by the settling sweep (settle-disbanded-teams.ts).
    const raised =
      cents > 0
        ? await moveTeamBalance(tx, {
            teamId,
            teamName: team.name,
            ownerUserId: caller.userId,
            ownerAccountId,
            cents,
            ref: `disband:${teamId}`,
            textKey: 'team_balance_moved',
            at: now,
          })
        : [];
    for (const m of members) {
      if (m.userId === caller.userId) continue;
      raised.push(
        ...(await raiseNotice({
          db: tx,
          at: now,
          type: 'team_disband',
          userId: m.userId,
          accountId: teamId,
          title: 'Team disbanded',
          content: `The team ${team.name} was disbanded.`,
          expand: { teamId, teamName: team.name },
        })),
      );
    }
    return { keyIds: keys.map((k) => k.id), notices: raised };
  });
  for (const id of keyIds) await publishKeyChange(deps, id);
  deps.noticeBus.push(notices);
  return { success: true };
}
