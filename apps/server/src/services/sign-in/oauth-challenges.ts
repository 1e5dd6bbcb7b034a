/**
 * The one-use proofs of third-party sign-in, in auth_challenges: the state handed out with an authorization URL
 * (its PKCE verifier sealed beside it) and the registration ticket of an identity nobody has yet. Only SHA-256 of
 * a state or ticket is stored; each is spent by one atomic update, so a replay finds nothing.
 */
import { ERROR_CODES } from '@rpc/contract';
import { authChallenges, type TExecutor } from '@rpc/db';
import { and, eq, gt, isNull, type SQL } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { z } from 'zod';
import type { TApiKeyCipher } from '../../lib/api-key-cipher';
import { createOpaqueToken, sha256Hex } from '../../lib/secrets';
import { RpcError } from '../../rpc/errors';
import type { TOauthIdentity } from './oauth-client';

/** How long the user has at the provider before the state dies. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;
/** How long an unknown identity may wait for hub_oauthRegister. */
export const OAUTH_TICKET_TTL_MS = 15 * 60_000;

export type TOauthPurpose = 'login' | 'bind';

const ZStatePayloadSchema = z.object({ verifier: z.string() });
const ZTicketPayloadSchema = z.object({
  subject: z.string(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  name: z.string().nullable(),
});

/** The verifier is sealed with the row id as authenticated data: copied into another row, it does not open. */
function verifierKeyId(challengeId: string): string {
  return `auth_challenges:${challengeId}`;
}

/**
 * A new state for `provider` with a fresh PKCE verifier. `buildUrl` gets the state and the S256 challenge; the row
 * is written only once it has answered, so a provider that cannot be reached leaves nothing behind.
 */
export async function issueOauthState(
  db: TExecutor,
  o: {
    cipher: TApiKeyCipher;
    now: number;
    provider: string;
    purpose: TOauthPurpose;
    /** the binding user; null for sign-in */
    userId: string | null;
  },
  buildUrl: (state: string, codeChallenge: string) => Promise<string>,
): Promise<{ url: string; state: string }> {
  const state = createOpaqueToken();
  const verifier = randomPKCECodeVerifier();
  const url = await buildUrl(state, await calculatePKCECodeChallenge(verifier));
  const id = randomUUID();
  await db.insert(authChallenges).values({
    id,
    kind: 'oauth',
    purpose: o.purpose,
    secretHash: sha256Hex(state),
    userId: o.userId,
    provider: o.provider,
    payload: { verifier: o.cipher.seal(verifierKeyId(id), verifier) },
    expiresAt: new Date(o.now + OAUTH_STATE_TTL_MS),
    createdAt: new Date(o.now),
  });
  return { url, state };
}

/**
 * Spends a state: it must be unused, unexpired, issued for this provider and purpose, and (binding) to this user;
 * anything else is 10216 and leaves a legitimate state untouched. Answers the PKCE verifier.
 */
export async function consumeOauthState(
  db: TExecutor,
  o: {
    cipher: TApiKeyCipher;
    now: number;
    state: string;
    provider: string;
    purpose: TOauthPurpose;
    userId: string | null;
  },
): Promise<{ codeVerifier: string }> {
  const [row] = await spend(db, 'oauth', o.state, o.now, [
    eq(authChallenges.provider, o.provider),
    eq(authChallenges.purpose, o.purpose),
    o.userId === null ? isNull(authChallenges.userId) : eq(authChallenges.userId, o.userId),
  ]);
  if (!row) throw new RpcError(ERROR_CODES.OAUTH_STATE_INVALID);
  const payload = ZStatePayloadSchema.safeParse(row.payload);
  try {
    if (!payload.success) throw new Error('no sealed verifier');
    return { codeVerifier: o.cipher.open(verifierKeyId(row.id), payload.data.verifier) };
  } catch (err) {
    // Without the verifier the code cannot be redeemed: the same answer as a provider refusing it.
    throw new RpcError(ERROR_CODES.OAUTH_EXCHANGE_FAILED, { cause: err });
  }
}

/** Keeps an identity nobody has yet for hub_oauthRegister; answers the ticket. */
export async function issueRegisterTicket(
  db: TExecutor,
  o: { now: number; provider: string; identity: TOauthIdentity },
): Promise<string> {
  const ticket = createOpaqueToken();
  await db.insert(authChallenges).values({
    kind: 'oauth_register',
    purpose: 'login',
    secretHash: sha256Hex(ticket),
    provider: o.provider,
    payload: {
      subject: o.identity.subject,
      email: o.identity.email,
      emailVerified: o.identity.emailVerified,
      name: o.identity.name,
    },
    expiresAt: new Date(o.now + OAUTH_TICKET_TTL_MS),
    createdAt: new Date(o.now),
  });
  return ticket;
}

/** Spends a registration ticket once; unknown, used or expired: 10216. */
export async function consumeRegisterTicket(
  db: TExecutor,
  o: { now: number; ticket: string },
): Promise<{ provider: string; identity: TOauthIdentity }> {
  const [row] = await spend(db, 'oauth_register', o.ticket, o.now, []);
  const identity = ZTicketPayloadSchema.safeParse(row?.payload);
  if (!row?.provider || !identity.success) throw new RpcError(ERROR_CODES.OAUTH_STATE_INVALID);
  return { provider: row.provider, identity: identity.data };
}

/** used_at is set only where it was null and the row is live: of two concurrent spends, one wins. */
function spend(
  db: TExecutor,
  kind: 'oauth' | 'oauth_register',
  secret: string,
  now: number,
  extra: SQL[],
) {
  return db
    .update(authChallenges)
    .set({ usedAt: new Date(now) })
    .where(
      and(
        eq(authChallenges.kind, kind),
        eq(authChallenges.secretHash, sha256Hex(secret)),
        isNull(authChallenges.usedAt),
        gt(authChallenges.expiresAt, new Date(now)),
        ...extra,
      ),
    )
    .returning({
      id: authChallenges.id,
      provider: authChallenges.provider,
      payload: authChallenges.payload,
    });
}
