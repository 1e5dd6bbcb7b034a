import { ERROR_CODES, METHODS, type TParams, type TResult } from '@rpc/contract';
import { sessions, users } from '@rpc/db';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { isTwoFactorOn, requireTwoFactorCode } from '../sign-in/two-factor';

type TOptions = Pick<
  TRpcContext,
  'db' | 'passwords' | 'clock' | 'throttle' | 'ip' | 'noticeBus' | 'apiKeyCipher'
> &
  TParams<'hub_changePassword'> & { auth: TAuth };

/**
 * Changes the password of a user who knows the current one (and, with two-factor sign-in on, gives a code); every
 * other session of the user ends.
 */
export async function changePassword(o: TOptions): Promise<TResult<'hub_changePassword'>> {
  const [user] = await o.db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, o.auth.userId))
    .limit(1);
  if (!user) throw new RpcError(ERROR_CODES.SESSION_MISSING);
  await o.throttle.enforce({
    action: 'changePassword',
    // Wallet-only users have no address; their user id keys the per-user counter instead.
    email: user.email ?? `user:${o.auth.userId}`,
    ip: o.ip,
    limitType: METHODS.hub_changePassword.limitType ?? 'type1',
  });
  if (o.password !== o.confirmPassword) throw new RpcError(ERROR_CODES.PASSWORD_MISMATCH);
  if (!user.passwordHash) throw new RpcError(ERROR_CODES.NO_PASSWORD_SET);
  // A missing code is said at once, so the form can ask for it with the passwords.
  if (o.twoFactorCode === undefined && (await isTwoFactorOn(o.db, o.auth.userId)))
    throw new RpcError(ERROR_CODES.TWO_FACTOR_REQUIRED);
  if (!(await o.passwords.verify(user.passwordHash, o.oldPassword)))
    throw new RpcError(ERROR_CODES.WRONG_PASSWORD);
  // Spent only once the old password is right, so a typo there does not cost a code.
  await requireTwoFactorCode(
    o,
    { userId: o.auth.userId, ip: o.ip },
    { code: o.twoFactorCode, method: 'hub_changePassword' },
  );

  const passwordHash = await o.passwords.hash(o.password);
  const now = new Date(o.clock.now());
  const ended = await o.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, o.auth.userId));
    return tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(sessions.userId, o.auth.userId),
          ne(sessions.id, o.auth.sessionId),
          isNull(sessions.revokedAt),
        ),
      )
      .returning({ id: sessions.id });
  });
  // After the commit: the other sessions' notice sockets close now, not at the next heartbeat.
  o.noticeBus.endSessions(ended.map((s) => s.id));
  return { success: true };
}
