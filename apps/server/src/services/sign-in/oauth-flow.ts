/**
 * Third-party sign-in and binding (docs/decisions/sign-in.md): the authorization URL with a one-use state and PKCE,
 * the callback that redeems the code, registration of an identity nobody has, and binding and unbinding providers.
 */
import { ERROR_CODES, METHODS, type TParams, type TResult } from '@rpc/contract';
import { userIdentities, users } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import { isUniqueViolation } from '../../lib/db-errors';
import type { TAuth, TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import {
  consumeOauthState,
  consumeRegisterTicket,
  issueOauthState,
  issueRegisterTicket,
  type TOauthPurpose,
} from './oauth-challenges';
import { describeOauthError, type TOauthIdentity } from './oauth-client';
import { findOauthProvider, type TOauthProvider } from './oauth-settings';
import {
  createPasswordlessUser,
  findIdentityOwner,
  passwordlessNickname,
} from './create-passwordless-user';
import { openSession } from './open-session';
import { assertNotLastWay } from './sign-in-ways';
import { requireRecentSignIn } from './two-factor';

type TOauthContext = Pick<
  TRpcContext,
  | 'db'
  | 'oauth'
  | 'config'
  | 'clock'
  | 'logger'
  | 'apiKeyCipher'
  | 'throttle'
  | 'ip'
  | 'userAgent'
  | 'noticeBus'
>;

/** The provider id wallets are bound under: never an OAuth provider, whatever the params say. */
const WALLET_PROVIDER = 'wallet';

/** Where the provider sends the browser back: the web's callback screens (SPEC §2). */
export function oauthRedirectUri(config: TRpcContext['config'], purpose: TOauthPurpose): string {
  return `${config.publicUrl}${purpose === 'login' ? '/auth/callback' : '/bind/callback'}`;
}

function providerOf(o: Pick<TOauthContext, 'oauth'>, id: string): TOauthProvider {
  const provider = findOauthProvider(o.oauth, id);
  if (!provider) throw new RpcError(ERROR_CODES.OAUTH_PROVIDER_UNKNOWN);
  return provider;
}

async function authorizationUrl(
  o: TOauthContext,
  provider: TOauthProvider,
  purpose: TOauthPurpose,
  userId: string | null,
): Promise<{ url: string; state: string }> {
  const redirectUri = oauthRedirectUri(o.config, purpose);
  return issueOauthState(
    o.db,
    { cipher: o.apiKeyCipher, now: o.clock.now(), provider: provider.id, purpose, userId },
    async (state, codeChallenge) => {
      try {
        return await provider.client.authorizationUrl({ redirectUri, state, codeChallenge });
      } catch (err) {
        // Discovery failed (provider down, wrong issuer): retried on the next attempt.
        o.logger.warn(
          { provider: provider.id, err: describeOauthError(err) },
          'oauth provider unavailable',
        );
        throw new RpcError(ERROR_CODES.OAUTH_PROVIDER_UNKNOWN, { cause: err });
      }
    },
  );
}

/** Spends the state, then redeems the code with its verifier; answers who signed in at the provider. */
async function redeem(
  o: TOauthContext,
  provider: TOauthProvider,
  p: { code: string; state: string },
  purpose: TOauthPurpose,
  userId: string | null,
): Promise<TOauthIdentity> {
  const { codeVerifier } = await consumeOauthState(o.db, {
    cipher: o.apiKeyCipher,
    now: o.clock.now(),
    state: p.state,
    provider: provider.id,
    purpose,
    userId,
  });
  try {
    return await provider.client.redeem({
      redirectUri: oauthRedirectUri(o.config, purpose),
      code: p.code,
      state: p.state,
      codeVerifier,
    });
  } catch (err) {
    // The provider's own error code and text help the operator; the code itself is never logged.
    o.logger.warn(
      { provider: provider.id, purpose, err: describeOauthError(err) },
      'oauth code exchange failed',
    );
    throw new RpcError(ERROR_CODES.OAUTH_EXCHANGE_FAILED, { cause: err });
  }
}

/** hub_getOauthLoginUrl */
export async function getOauthLoginUrl(
  o: TOauthContext,
  p: TParams<'hub_getOauthLoginUrl'>,
): Promise<TResult<'hub_getOauthLoginUrl'>> {
  await o.throttle.enforce({
    action: 'oauthSignIn',
    email: null,
    ip: o.ip,
    limitType: METHODS.hub_getOauthLoginUrl.limitType ?? 'type3',
  });
  return authorizationUrl(o, providerOf(o, p.provider), 'login', null);
}

/**
 * hub_getOauthBindUrl: refused early (10213) when the user already has this provider, and (10225) when the session
 * is over 15 minutes old, before any state is issued: the user learns it before the trip to the provider.
 */
export async function getOauthBindUrl(
  o: TOauthContext,
  auth: TAuth,
  p: TParams<'hub_getOauthBindUrl'>,
): Promise<TResult<'hub_getOauthBindUrl'>> {
  await requireRecentSignIn(o, auth.sessionId);
  const provider = providerOf(o, p.provider);
  if (await hasIdentity(o, auth.userId, provider.id))
    throw new RpcError(ERROR_CODES.IDENTITY_ALREADY_BOUND);
  return authorizationUrl(o, provider, 'bind', auth.userId);
}

/**
 * hub_checkOauthCode: the identity's user is signed in; an identity nobody has gets a registration ticket. An
 * account is never found by the provider's e-mail address (anyone can claim an address at some provider):
 * `emailTaken` only tells the web to suggest signing in and binding instead.
 */
export async function checkOauthCode(
  o: TOauthContext,
  p: TParams<'hub_checkOauthCode'>,
): Promise<TResult<'hub_checkOauthCode'>> {
  await o.throttle.enforce({
    action: 'oauthSignIn',
    email: null,
    ip: o.ip,
    limitType: METHODS.hub_checkOauthCode.limitType ?? 'type3',
  });
  const provider = providerOf(o, p.provider);
  const identity = await redeem(o, provider, p, 'login', null);
  const now = o.clock.now();

  const owner = await findIdentityOwner(o.db, provider.id, identity.subject);
  if (owner) {
    const signIn = await openSession(o.db, {
      userId: owner.userId,
      method: provider.id,
      now,
      ip: o.ip,
      userAgent: o.userAgent,
    });
    return { signIn, registration: null };
  }

  const ticket = await issueRegisterTicket(o.db, { now, provider: provider.id, identity });
  const emailTaken =
    identity.email !== null &&
    (
      await o.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, identity.email))
        .limit(1)
    ).length > 0;
  return {
    signIn: null,
    registration: {
      ticket,
      provider: provider.id,
      email: identity.email,
      name: identity.name,
      emailTaken,
    },
  };
}

/** hub_oauthRegister: the ticket's identity becomes a new uninitialised, password-less user, signed in. */
export async function oauthRegister(
  o: TOauthContext,
  p: TParams<'hub_oauthRegister'>,
): Promise<TResult<'hub_oauthRegister'>> {
  await o.throttle.enforce({
    action: 'register',
    email: null,
    ip: o.ip,
    limitType: METHODS.hub_oauthRegister.limitType ?? 'type3',
  });
  const { provider, identity } = await consumeRegisterTicket(o.db, {
    now: o.clock.now(),
    ticket: p.ticket,
  });
  // Two tabs registering the same identity: the second signs in the user the first created.
  const made = await createPasswordlessUser(o, {
    nickname: passwordlessNickname(identity.name, identity.email),
    language: p.language ?? 'en',
    identity: {
      provider,
      subject: identity.subject,
      email: identity.email,
      displayName: identity.name,
    },
  });
  const signIn = await openSession(o.db, {
    userId: made.userId,
    method: provider,
    now: o.clock.now(),
    ip: o.ip,
    userAgent: o.userAgent,
  });
  return { ...signIn, created: true };
}

/**
 * hub_bindOauth: the identity must be nobody's (10212) and the user must not have this provider yet (10213). A new
 * way in outlives the token that added it, so the session must be under 15 minutes old here too (10225), checked
 * before the state is spent: the row is written here, and a state is tied to the user, not to the session that
 * asked for it, so the check at hub_getOauthBindUrl alone would not cover this call.
 */
export async function bindOauth(
  o: TOauthContext,
  auth: TAuth,
  p: TParams<'hub_bindOauth'>,
): Promise<TResult<'hub_bindOauth'>> {
  await requireRecentSignIn(o, auth.sessionId);
  const provider = providerOf(o, p.provider);
  const identity = await redeem(o, provider, p, 'bind', auth.userId);
  const refusal = async () => {
    const owner = await findIdentityOwner(o.db, provider.id, identity.subject);
    if (owner && owner.userId !== auth.userId) return new RpcError(ERROR_CODES.IDENTITY_TAKEN);
    if (owner || (await hasIdentity(o, auth.userId, provider.id)))
      return new RpcError(ERROR_CODES.IDENTITY_ALREADY_BOUND);
    return null;
  };
  const refused = await refusal();
  if (refused) throw refused;
  try {
    await o.db.insert(userIdentities).values({
      userId: auth.userId,
      provider: provider.id,
      subject: identity.subject,
      email: identity.email,
      displayName: identity.name,
      createdAt: new Date(o.clock.now()),
    });
  } catch (err) {
    // Lost a race to a bind or sign-up of the same identity or provider: the unique indexes decide.
    if (isUniqueViolation(err)) throw (await refusal()) ?? err;
    throw err;
  }
  return { provider: provider.id, email: identity.email };
}

/** hub_unbindOauth: 50404 when not bound; 10214 when it is the last way left to sign in. */
export async function unbindOauth(
  o: TOauthContext,
  auth: TAuth,
  p: TParams<'hub_unbindOauth'>,
): Promise<TResult<'hub_unbindOauth'>> {
  if (p.provider === WALLET_PROVIDER) throw new RpcError(ERROR_CODES.NOT_FOUND);
  await o.db.transaction(async (tx) => {
    // Locked, so two unbinds at once cannot each leave the other as the last way.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, auth.userId)).for('update');
    const [row] = await tx
      .select({ id: userIdentities.id })
      .from(userIdentities)
      .where(and(eq(userIdentities.userId, auth.userId), eq(userIdentities.provider, p.provider)));
    if (!row) throw new RpcError(ERROR_CODES.NOT_FOUND);
    await assertNotLastWay(tx, auth.userId, p.provider);
    await tx.delete(userIdentities).where(eq(userIdentities.id, row.id));
  });
  return { success: true };
}

async function hasIdentity(
  o: Pick<TOauthContext, 'db'>,
  userId: string,
  provider: string,
): Promise<boolean> {
  const rows = await o.db
    .select({ id: userIdentities.id })
    .from(userIdentities)
    .where(and(eq(userIdentities.userId, userId), eq(userIdentities.provider, provider)))
    .limit(1);
  return rows.length > 0;
}
