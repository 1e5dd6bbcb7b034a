/**
 * The second step of a sign-in with two-factor sign-in on: a code turns the pending session (10 minutes, good for
 * nothing else) into a full one with a new token; wrong codes are counted on the pending session, which ends at the
 * limit, so a stolen password buys a bounded number of guesses per sign-in (and the per-user throttle bounds them
 * across sign-ins).
 */
import { ERROR_CODES, type TParams, type TResult } from '@rpc/contract';
import { sessions } from '@rpc/db';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TDeps } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { openSession } from './open-session';
import { enforceTwoFactorThrottle, verifyTwoFactorCode } from './two-factor';

/** Wrong codes a pending session takes before it is revoked. */
export const MAX_TWO_FACTOR_ATTEMPTS = 5;

export type TTwoFactorLoginCaller = {
  userId: string;
  sessionId: string;
  ip: string;
  userAgent: string | null;
};

export async function verifyTwoFactorLogin(
  deps: Pick<TDeps, 'db' | 'apiKeyCipher' | 'clock' | 'throttle' | 'noticeBus'>,
  caller: TTwoFactorLoginCaller,
  params: TParams<'hub_verifyTwoFactorLogin'>,
): Promise<TResult<'hub_verifyTwoFactorLogin'>> {
  await enforceTwoFactorThrottle(deps, caller, 'hub_verifyTwoFactorLogin');
  const [session] = await deps.db
    .select({ pending: sessions.twoFactorPending, method: sessions.method })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, caller.sessionId),
        eq(sessions.userId, caller.userId),
        isNull(sessions.revokedAt),
      ),
    )
    .limit(1);
  if (!session) throw new RpcError(ERROR_CODES.SESSION_REVOKED);
  // A full session has nothing to finish.
  if (!session.pending) throw new RpcError(ERROR_CODES.CONFLICT);

  const now = deps.clock.now();
  if (!(await verifyTwoFactorCode(deps.db, deps.apiKeyCipher, caller.userId, params.code, now))) {
    const attempts = sql`${sessions.twoFactorAttempts} + 1`;
    const [counted] = await deps.db
      .update(sessions)
      .set({
        twoFactorAttempts: attempts,
        revokedAt: sql`case when ${attempts} >= ${MAX_TWO_FACTOR_ATTEMPTS} then ${new Date(now).toISOString()}::timestamptz else null end`,
      })
      .where(and(eq(sessions.id, caller.sessionId), isNull(sessions.revokedAt)))
      .returning({ revokedAt: sessions.revokedAt });
    if (counted?.revokedAt) deps.noticeBus.endSessions([caller.sessionId]);
    throw new RpcError(ERROR_CODES.TWO_FACTOR_INVALID);
  }

  // Claiming the pending session is the lock: of two right codes given at once, one gets the full session.
  const claimed = await deps.db
    .update(sessions)
    .set({ revokedAt: new Date(now) })
    .where(
      and(
        eq(sessions.id, caller.sessionId),
        eq(sessions.twoFactorPending, true),
        isNull(sessions.revokedAt),
      ),
    )
    .returning({ id: sessions.id });
  if (claimed.length === 0) throw new RpcError(ERROR_CODES.SESSION_REVOKED);
  deps.noticeBus.endSessions([caller.sessionId]);

  // Where the code came from is where the full session will be used: this request's address and browser.
  return openSession(deps.db, {
    userId: caller.userId,
    method: session.method,
    now,
    ip: caller.ip,
    userAgent: caller.userAgent,
    twoFactorDone: true,
  });
}
