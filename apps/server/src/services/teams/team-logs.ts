/** hub_getTeamLogs: the team's audit log, newest first, filtered and paged (SPEC §9). */
import type { TParams, TResult } from '@rpc/contract';
import { teamAuditLogs, users } from '@rpc/db';
import { and, count, desc, eq, gte, lt } from 'drizzle-orm';
import type { TTeamCaller, TTeamDeps } from './team-caller';
import { displayName } from './team-rows';

export async function getTeamLogs(
  deps: Pick<TTeamDeps, 'db'>,
  caller: TTeamCaller,
  params: TParams<'hub_getTeamLogs'>,
): Promise<TResult<'hub_getTeamLogs'>> {
  const where = and(
    eq(teamAuditLogs.accountId, caller.account.id),
    params.action ? eq(teamAuditLogs.action, params.action) : undefined,
    params.actorUserId ? eq(teamAuditLogs.actorUserId, params.actorUserId) : undefined,
    params.startTime !== undefined
      ? gte(teamAuditLogs.createdAt, new Date(params.startTime))
      : undefined,
    params.endTime !== undefined
      ? lt(teamAuditLogs.createdAt, new Date(params.endTime))
      : undefined,
  );
  const rows = await deps.db
    .select({
      id: teamAuditLogs.id,
      action: teamAuditLogs.action,
      actorUserId: teamAuditLogs.actorUserId,
      actorName: displayName,
      target: teamAuditLogs.target,
      detail: teamAuditLogs.detail,
      ip: teamAuditLogs.ip,
      createdAt: teamAuditLogs.createdAt,
    })
    .from(teamAuditLogs)
    .leftJoin(users, eq(users.id, teamAuditLogs.actorUserId))
    .where(where)
    .orderBy(desc(teamAuditLogs.createdAt), desc(teamAuditLogs.id))
    .limit(params.perPage)
    .offset((params.page - 1) * params.perPage);
  const [total] = await deps.db.select({ n: count() }).from(teamAuditLogs).where(where);
  return {
    list: rows.map((r) => ({
      ...r,
      id: String(r.id),
      actorName: r.actorName ?? '',
      createdAt: r.createdAt.getTime(),
    })),
    total: total?.n ?? 0,
    page: params.page,
    perPage: params.perPage,
  };
}
