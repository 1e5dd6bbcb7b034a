import { ERROR_CODES, METHODS, SESSION_TTL_MS, type TParams, type TResult } from '@rpc/contract';
import { sessions, users, type TDatabase } from '@rpc/db';
import { and, eq, gt } from 'drizzle-orm';
import type { TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { openSession } from '../sign-in/open-session';

type TOptions = Pick<TRpcContext, 'db' | 'passwords' | 'clock' | 'throttle' | 'ip' | 'userAgent'> &
  TParams<'hub_login'>;

export async function login(o: TOptions): Promise<TResult<'hub_login'>> {
  await o.throttle.enforce({
    action: 'login',
    email: o.email,
    ip: o.ip,
    limitType: METHODS.hub_login.limitType ?? 'type1',
    // The per-address cap alone never holds the owner where they have signed in before (docs/errors.md).
    isKnownPlace: () =>
      hasSignedInFrom(o.db, { email: o.email, ip: o.ip, since: o.clock.now() - SESSION_TTL_MS }),
  });
  const [user] = await o.db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      mailConfirmedAt: users.mailConfirmedAt,
    })
    .from(users)
    .where(eq(users.email, o.email))
    .limit(1);
  if (!user || !user.passwordHash) {
    // Same argon2 work as a wrong password, so response time does not tell which addresses exist.
    await o.passwords.verifyDummy(o.password);
    throw new RpcError(ERROR_CODES.BAD_CREDENTIALS);
  }
  if (!(await o.passwords.verify(user.passwordHash, o.password)))
    throw new RpcError(ERROR_CODES.BAD_CREDENTIALS);
  // Only after the password matched, so 10203 never reveals that an address is registered.
  if (!user.mailConfirmedAt) throw new RpcError(ERROR_CODES.EMAIL_NOT_CONFIRMED);

  return openSession(o.db, {
    userId: user.id,
    method: 'password',
    now: o.clock.now(),
    ip: o.ip,
    userAgent: o.userAgent,
  });
}

/** Whether the address signed in (right password) from this IP within the window; asked only past the cap. */
async function hasSignedInFrom(
  db: TDatabase,
  o: { email: string; ip: string; since: number },
): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(users.email, o.email),
        eq(sessions.ip, o.ip),
        gt(sessions.createdAt, new Date(o.since)),
      ),
    )
    .limit(1);
  return row !== undefined;
}
