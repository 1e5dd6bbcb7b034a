/**
 * The one place a console session starts, whatever proved the user (password, wallet, OAuth provider): with
 * two-factor sign-in on, the session starts pending (10 minutes, good only for hub_verifyTwoFactorLogin and
 * hub_logout) and the caller is told to ask for a code.
 */
import { SESSION_TTL_MS, type TSignInResult } from '@rpc/contract';
import { sessions, users, type TDatabase } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { createOpaqueToken, sha256Hex } from '../../lib/secrets';

/** How long a pending session waits for its two-factor code. */
export const TWO_FACTOR_PENDING_TTL_MS = 10 * 60_000;

export type TSessionMethod = 'password' | 'wallet' | (string & {});

export type TOpenSessionOptions = {
  userId: string;
  /** password, wallet, or the OAuth provider id: shown in the session list */
  method: TSessionMethod;
  now: number;
  ip: string;
  userAgent: string | null;
  /** the two-factor code was just given (hub_verifyTwoFactorLogin): open a full session even with 2FA on */
  twoFactorDone?: boolean;
};

/** Inserts the session row (token stored as SHA-256) and answers the sign-in result. */
export async function openSession(db: TDatabase, o: TOpenSessionOptions): Promise<TSignInResult> {
  const pending = o.twoFactorDone === true ? false : await hasTwoFactor(db, o.userId);
  const token = createOpaqueToken();
  const expiresAt = o.now + (pending ? TWO_FACTOR_PENDING_TTL_MS : SESSION_TTL_MS);
  await db.insert(sessions).values({
    userId: o.userId,
    tokenHash: sha256Hex(token),
    createdAt: new Date(o.now),
    expiresAt: new Date(expiresAt),
    lastSeenAt: new Date(o.now),
    ip: o.ip,
    userAgent: o.userAgent?.slice(0, 512) ?? null,
    method: o.method,
    twoFactorPending: pending,
  });
  return { token, expiresAt, twoFactorRequired: pending };
}

async function hasTwoFactor(db: TDatabase, userId: string): Promise<boolean> {
  const [user] = await db
    .select({ totpEnabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return user?.totpEnabledAt != null;
}
