/** Bearer token → session → user → acting account (personal, or the team in X-Team-Id after a membership check). */
import { ERROR_CODES } from '@rpc/contract';
import { accountMembers, accounts, sessions, users, type TDatabase } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import type { TClock } from '../lib/clock';
import { sha256Hex } from '../lib/secrets';
import type { TAuth } from '../rpc/context';
import { RpcError } from '../rpc/errors';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** last_seen_at is a hint, not an audit log: write it at most this often per session. */
const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

export async function resolveAuth(o: {
  db: TDatabase;
  clock: TClock;
  token: string | null;
  teamId: string | null;
}): Promise<TAuth> {
  if (!o.token || !TOKEN_SHAPE.test(o.token)) throw new RpcError(ERROR_CODES.SESSION_MISSING);
  const now = o.clock.now();
  const [row] = await o.db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      lastSeenAt: sessions.lastSeenAt,
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

  if (!row.lastSeenAt || now - row.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
    await o.db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, row.sessionId));
  }

  const base = { userId: row.userId, sessionId: row.sessionId };
  if (o.teamId === null || o.teamId === '') {
    return { ...base, account: { id: row.personalAccountId, kind: 'personal', role: 'owner' } };
  }
  // Checked before the query: a malformed id must be a 10301, not a uuid cast error.
  if (!UUID_SHAPE.test(o.teamId)) throw new RpcError(ERROR_CODES.TEAM_FORBIDDEN);
  const [member] = await o.db
    .select({ id: accounts.id, kind: accounts.kind, role: accountMembers.role })
    .from(accountMembers)
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .where(
      and(
        eq(accountMembers.accountId, o.teamId.toLowerCase()),
        eq(accountMembers.userId, row.userId),
      ),
    )
    .limit(1);
  if (!member) throw new RpcError(ERROR_CODES.TEAM_FORBIDDEN);
  return { ...base, account: member };
}
