/**
 * The ways a user can sign in: e-mail with a password, a bound wallet, each bound OAuth provider. Unbinding the
 * last one is refused (10214), so no account is ever locked out by its owner.
 */
import { ERROR_CODES } from '@rpc/contract';
import { userIdentities, users, type TDatabase } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { RpcError } from '../../rpc/errors';

export type TSignInWays = {
  password: boolean;
  /** provider ids bound to the user ('wallet' for the wallet) */
  identities: string[];
};

export async function signInWays(db: TDatabase, userId: string): Promise<TSignInWays> {
  const [user] = await db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  const rows = await db
    .select({ provider: userIdentities.provider })
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId));
  return {
    password: user?.email != null && user.passwordHash != null,
    identities: rows.map((r) => r.provider),
  };
}

/**
 * Throws 10214 unless the user keeps a way to sign in once `provider` is gone. Call it inside the transaction that
 * deletes the identity, after locking the user row, so two parallel unbinds cannot each leave the other as last.
 */
export async function assertNotLastWay(
  db: TDatabase,
  userId: string,
  provider: string,
): Promise<void> {
  const ways = await signInWays(db, userId);
  const left = (ways.password ? 1 : 0) + ways.identities.filter((p) => p !== provider).length;
  if (left === 0) throw new RpcError(ERROR_CODES.LAST_SIGN_IN_METHOD);
}
