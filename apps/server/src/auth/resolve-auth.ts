/** Bearer token → session → user → acting account (personal, or the team in X-Team-Id after a membership check). */
import { ERROR_CODES } from '@rpc/contract';
import { accountMembers, accounts, sessions, users, type TDatabase } from '@rpc/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { TClock } from '../lib/clock';
import { sha256Hex } from '../lib/secrets';
import type { TAuth } from '../rpc/context';
import { RpcError } from '../rpc/errors';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** last_seen_at is a hint, not an audit log: write it at most this often per session. */
const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

export type TSession = { userId: string; sessionId: string; personalAccountId: string };

/**
 * Bearer token → session → user. Throws 10101–10103 (SPEC §8 session errors), and 10104 for a session still owing
 * its two-factor code unless the caller allows that (hub_verifyTwoFactorLogin, hub_logout).
 */
export async function resolveSession(o: {
  db: TDatabase;
  clock: TClock;
  token: string | null;
  allowTwoFactorPending?: boolean;
}): Promise<TSession> {
  if (!o.token || !TOKEN_SHAPE.test(o.token)) throw new RpcError(ERROR_CODES.SESSION_MISSING);
  const now = o.clock.now();
  const [row] = await o.db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      lastSeenAt: sessions.lastSeenAt,
      twoFactorPending: sessions.twoFactorPending,
      userId: users.id,
      personalAccountId: users.personalAccountId,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sha256Hex(o.token)))
    .limit(1);
  if (!row) throw new RpcError(ERROR_CODES.SESSION_MISSING);
  if (row.revokedAt) throw new RpcError(ERROR_CODES.SESSION_REVOKED);
  if (row.expiresAt.getTime() <= now) throw new RpcError(ERROR_CODES.SESSION_EXPIRED);
  if (row.twoFactorPending && !o.allowTwoFactorPending)
    throw new RpcError(ERROR_CODES.TWO_FACTOR_PENDING);

  if (!row.lastSeenAt || now - row.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
    await o.db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, row.sessionId));
  }
  return { userId: row.userId, sessionId: row.sessionId, personalAccountId: row.personalAccountId };
}

/**
 * The account a call acts on: the personal account (whose user is its owner), or the team `teamId` names after a
 * membership check (10301 when the user is not a member, whatever the reason: no such team, disbanded, removed).
 */
export async function resolveActingAccount(
  db: TDatabase,
  session: TSession,
  teamId: string | null,
): Promise<TAuth> {
  const base = { userId: session.userId, sessionId: session.sessionId };
  if (teamId === null || teamId === '') {
    return { ...base, account: { id: session.personalAccountId, kind: 'personal', role: 'owner' } };
  }
  // Checked before the query: a malformed id must be a 10301, not a uuid cast error.
  if (!UUID_SHAPE.test(teamId)) throw new RpcError(ERROR_CODES.TEAM_FORBIDDEN);
  const [member] = await db
    .select({ id: accounts.id, kind: accounts.kind, role: accountMembers.role })
    .from(accountMembers)
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .where(
      and(
        eq(accountMembers.accountId, teamId.toLowerCase()),
        eq(accountMembers.userId, session.userId),
        isNull(accounts.disbandedAt),
      ),
    )
    .limit(1);
  if (!member) throw new RpcError(ERROR_CODES.TEAM_FORBIDDEN);
  return { ...base, account: member };
}

export async function resolveAuth(o: {
  db: TDatabase;
  clock: TClock;
  token: string | null;
  teamId: string | null;
}): Promise<TAuth> {
  return resolveActingAccount(o.db, await resolveSession(o), o.teamId);
}
