/** The user's own sessions: list the live ones, end one, or end all but this one (their sockets close at once). */
import { ERROR_CODES, type TParams, type TResult } from '@rpc/contract';
import { sessions, type TExecutor } from '@rpc/db';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { TDeps } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';

export type TSessionCaller = { userId: string; sessionId: string };

type TSessionDeps = Pick<TDeps, 'db' | 'clock' | 'noticeBus'>;

/** Live: not ended, not expired, and past its two-factor step (a pending one is a sign-in still under way). */
export async function getSessions(
  deps: Pick<TDeps, 'db' | 'clock'>,
  caller: TSessionCaller,
): Promise<TResult<'hub_getSessions'>> {
  const rows = await deps.db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, caller.userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date(deps.clock.now())),
        eq(sessions.twoFactorPending, false),
      ),
    )
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
  return {
    list: rows.map((s) => ({
      id: s.id,
      createdAt: s.createdAt.getTime(),
      lastSeenAt: s.lastSeenAt?.getTime() ?? null,
      expiresAt: s.expiresAt.getTime(),
      ip: s.ip,
      userAgent: s.userAgent,
      method: s.method,
      current: s.id === caller.sessionId,
    })),
  };
}

/**
 * Ends one session of the caller's (the current one too: that is a sign-out). The user is in the `where`, so
 * another user's id, like an unknown, ended or expired one, is a 50404 and stays untouched.
 */
export async function revokeSession(
  deps: TSessionDeps,
  caller: TSessionCaller,
  params: TParams<'hub_revokeSession'>,
): Promise<TResult<'hub_revokeSession'>> {
  const now = new Date(deps.clock.now());
  const ended = await deps.db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.id, params.sessionId),
        eq(sessions.userId, caller.userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    )
    .returning({ id: sessions.id });
  if (ended.length === 0) throw new RpcError(ERROR_CODES.NOT_FOUND);
  deps.noticeBus.endSessions(ended.map((s) => s.id));
  return { success: true };
}

/** Ends every other live session, pending sign-ins included (someone elsewhere knows the password). */
export async function revokeOtherSessions(
  deps: TSessionDeps,
  caller: TSessionCaller,
): Promise<TResult<'hub_revokeOtherSessions'>> {
  const ended = await endOtherSessions(deps.db, caller, deps.clock.now());
  deps.noticeBus.endSessions(ended);
  return { revoked: ended.length };
}

/**
 * Revokes every live session of the user but `sessionId`, pending sign-ins included; answers their ids, whose
 * notice sockets the caller closes after its commit (noticeBus.endSessions).
 */
export async function endOtherSessions(
  db: TExecutor,
  caller: { userId: string; sessionId: string },
  now: number,
): Promise<string[]> {
  const at = new Date(now);
  const ended = await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(
      and(
        eq(sessions.userId, caller.userId),
        ne(sessions.id, caller.sessionId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, at),
      ),
    )
    .returning({ id: sessions.id });
  return ended.map((s) => s.id);
}
