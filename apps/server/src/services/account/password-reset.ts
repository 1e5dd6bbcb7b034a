import { ERROR_CODES, type TParams, type TResult } from '@rpc/contract';
import { sessions, users } from '@rpc/db';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { consumeCode, enforceCodeThrottle, inspectCode, voidCodes } from './one-time-codes';

type TOptions = Pick<
  TRpcContext,
  'db' | 'passwords' | 'clock' | 'noticeBus' | 'throttle' | 'ip' | 'logger'
> &
  TParams<'hub_passwordReset'>;

/**
 * New password by single-use code: ends every session and every other reset link; proves the mailbox, so confirms it
 * and lifts the per-address sign-in cap (the owner's way in while a crowd of IPs keeps that cap full).
 */
export async function passwordReset(o: TOptions): Promise<TResult<'hub_passwordReset'>> {
  await enforceCodeThrottle(o, 'hub_passwordReset');
  if (o.password !== o.confirmPassword) throw new RpcError(ERROR_CODES.PASSWORD_MISMATCH);
  const found = await inspectCode(o.db, {
    code: o.code,
    purposes: ['password_reset', 'password_set'],
    now: o.clock.now(),
  });
  if (found.status === 'used') throw new RpcError(ERROR_CODES.CODE_USED);
  if (found.status !== 'valid' || !found.id || !found.userId)
    throw new RpcError(ERROR_CODES.RESET_CODE_INVALID);
  const { id, userId } = found;

  const passwordHash = await o.passwords.hash(o.password);
  const now = o.clock.now();
  const ended = await o.db.transaction(async (tx) => {
    if (!(await consumeCode(tx, { id, now }))) throw new RpcError(ERROR_CODES.CODE_USED);
    await tx
      .update(users)
      .set({
        passwordHash,
        mailConfirmedAt: sql`coalesce(${users.mailConfirmedAt}, ${new Date(now).toISOString()}::timestamptz)`,
        updatedAt: new Date(now),
      })
      .where(eq(users.id, userId));
    const revoked = await tx
      .update(sessions)
      .set({ revokedAt: new Date(now) })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    await voidCodes(tx, { userId, purposes: ['password_reset', 'password_set'], now });
    return revoked;
  });
  o.noticeBus.endSessions(ended.map((s) => s.id));
  if (found.email) {
    // The reset is committed; a counter that cannot be cleared only leaves the cap to run out by itself.
    await o.throttle
      .resetEmail({ action: 'login', email: found.email })
      .catch((err: unknown) =>
        o.logger.warn({ err }, 'could not lift the sign-in cap after a reset'),
      );
  }
  return { success: true };
}
