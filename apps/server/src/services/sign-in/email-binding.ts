/**
 * E-mail binding for accounts created without an address (wallet, third party): a six-digit code mailed to the
 * address proves the mailbox; binding it sets the address (confirmed) and, when the account has none, a password.
 */
import { randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { ERROR_CODES, METHODS, type TParams, type TResult } from '@rpc/contract';
import { authChallenges, users } from '@rpc/db';
import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { TApiKeyCipher } from '../../lib/api-key-cipher';
import { isUniqueViolation } from '../../lib/db-errors';
import { renderBindCodeMail } from '../../mail/templates/bind-code';
import type { TDeps } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { enforceTwoFactorThrottle, requireRecentSignIn } from './two-factor';

export const BIND_CODE_TTL_MS = 15 * 60_000;
/** Wrong codes a challenge takes; then it is dead and a new mail is needed. */
export const MAX_BIND_CODE_ATTEMPTS = 5;

export type TBindCaller = { userId: string; ip: string; sessionId: string };

/**
 * Six digits are 10^6 possibilities: online, the attempt limit and the throttles bound guessing; offline, a bare
 * SHA-256 of the code would fall to a million hashes. So the hash is keyed (HMAC-SHA-256 under a key derived from
 * API_KEY_SECRET, which the database does not hold) and salted with the challenge id, which also keeps two
 * challenges with the same code apart under the (kind, secret_hash) unique index.
 */
function bindCodeHash(cipher: TApiKeyCipher, challengeId: string, code: string): string {
  return cipher.hash(`email-bind:${challengeId}:${code}`);
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

async function userOf(
  deps: Pick<TDeps, 'db'>,
  userId: string,
): Promise<{ email: string | null; passwordHash: string | null; language: 'en' | 'zh' }> {
  const [user] = await deps.db
    .select({ email: users.email, passwordHash: users.passwordHash, language: users.language })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw new RpcError(ERROR_CODES.SESSION_MISSING);
  return user;
}

/** Whether another user holds the address. */
async function isTakenByOther(
  deps: Pick<TDeps, 'db'>,
  userId: string,
  email: string,
): Promise<boolean> {
  const [row] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), ne(users.id, userId)))
    .limit(1);
  return row !== undefined;
}

export async function noPassword(
  deps: Pick<TDeps, 'db'>,
  caller: Pick<TBindCaller, 'userId'>,
): Promise<TResult<'hub_noPassword'>> {
  const user = await userOf(deps, caller.userId);
  return { isNoPassword: user.passwordHash === null, email: user.email };
}

/** Available unless some user (the caller included) already has the address. */
export async function preBindEmail(
  deps: Pick<TDeps, 'db' | 'throttle'>,
  caller: TBindCaller,
  params: TParams<'hub_preBindEmail'>,
): Promise<TResult<'hub_preBindEmail'>> {
  // The same enumeration concern as hub_emailExists, so the same counters (per address, per IP).
  await deps.throttle.enforce({
    action: 'emailExists',
    email: params.email,
    ip: caller.ip,
    limitType: METHODS.hub_preBindEmail.limitType ?? 'type3',
  });
  const [row] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, params.email))
    .limit(1);
  return { available: row === undefined };
}

export async function sendBindConfirmMail(
  deps: Pick<TDeps, 'db' | 'apiKeyCipher' | 'clock' | 'throttle' | 'mailer' | 'logger'>,
  caller: TBindCaller,
  params: TParams<'hub_sendBindConfirmMail'>,
): Promise<TResult<'hub_sendBindConfirmMail'>> {
  const limitType = METHODS.hub_sendBindConfirmMail.limitType ?? 'type2';
  // Per address (mail bombing) and per user (one account mailing many addresses); each call counts the IP twice.
  await deps.throttle.enforce({
    action: 'bindMail',
    email: params.email,
    ip: caller.ip,
    limitType,
  });
  await deps.throttle.enforce({
    action: 'bindMail',
    email: `user:${caller.userId}`,
    ip: caller.ip,
    limitType,
  });
  const user = await userOf(deps, caller.userId);
  if (user.email !== null) throw new RpcError(ERROR_CODES.EMAIL_ALREADY_BOUND);
  // Said before the mail goes; hub_bindEmail checks it again.
  if (user.passwordHash === null) await requireRecentSignIn(deps, caller.sessionId);
  if (await isTakenByOther(deps, caller.userId, params.email))
    throw new RpcError(ERROR_CODES.EMAIL_TAKEN);

  const now = deps.clock.now();
  const expiresAt = now + BIND_CODE_TTL_MS;
  const id = randomUUID();
  const code = String(randomInt(1_000_000)).padStart(6, '0');
  await deps.db.transaction(async (tx) => {
    // The user's row serialises sends, so exactly one challenge stays live: the newest.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, caller.userId)).for('update');
    await tx
      .update(authChallenges)
      .set({ usedAt: new Date(now) })
      .where(
        and(
          eq(authChallenges.kind, 'email_bind'),
          eq(authChallenges.userId, caller.userId),
          isNull(authChallenges.usedAt),
        ),
      );
    await tx.insert(authChallenges).values({
      id,
      kind: 'email_bind',
      purpose: 'bind',
      secretHash: bindCodeHash(deps.apiKeyCipher, id, code),
      userId: caller.userId,
      payload: { email: params.email },
      expiresAt: new Date(expiresAt),
      createdAt: new Date(now),
    });
  });

  const mail = renderBindCodeMail(user.language, {
    code,
    minutes: Math.round(BIND_CODE_TTL_MS / 60_000),
  });
  try {
    await deps.mailer.send({ ...mail, to: params.email });
  } catch (err) {
    // The challenge is stored; the user can ask for another mail. Never the code in the log.
    deps.logger.error({ err, to: params.email, kind: 'email_bind' }, 'mail send failed');
  }
  return { sent: true, expiresAt };
}

/** The password to set, when the account has none: both digests given and equal (10004, 10206). */
function newPasswordOf(params: TParams<'hub_bindEmail'>): string {
  const missing = (['password', 'confirmPassword'] as const).filter((k) => params[k] === undefined);
  if (missing.length > 0)
    throw new RpcError(ERROR_CODES.INVALID_PARAMS, {
      details: missing.map((path) => ({
        path,
        message: 'required: the account has no password yet',
      })),
    });
  if (params.password !== params.confirmPassword) throw new RpcError(ERROR_CODES.PASSWORD_MISMATCH);
  return params.password!;
}

export async function bindEmail(
  deps: Pick<TDeps, 'db' | 'apiKeyCipher' | 'clock' | 'throttle' | 'passwords'>,
  caller: TBindCaller,
  params: TParams<'hub_bindEmail'>,
): Promise<TResult<'hub_bindEmail'>> {
  await enforceTwoFactorThrottle(deps, caller, 'hub_bindEmail');
  const user = await userOf(deps, caller.userId);
  if (user.email !== null) throw new RpcError(ERROR_CODES.EMAIL_ALREADY_BOUND);
  // A first password is proof of the user from then on (hub_enableTwoFactor asks for it): whoever sets it must have
  // signed in lately, not only hold a token (a stolen session could otherwise set one, then turn two-factor on).
  if (user.passwordHash === null) await requireRecentSignIn(deps, caller.sessionId);
  // Checked before the code is spent, so a typo in the password does not cost the mail.
  const password = user.passwordHash === null ? newPasswordOf(params) : null;

  const now = deps.clock.now();
  // Each try is counted before the code is compared: parallel guesses cannot outrun the limit.
  const tried = await deps.db
    .update(authChallenges)
    .set({ attempts: sql`${authChallenges.attempts} + 1` })
    .where(
      and(
        eq(authChallenges.kind, 'email_bind'),
        eq(authChallenges.userId, caller.userId),
        isNull(authChallenges.usedAt),
        lt(authChallenges.attempts, MAX_BIND_CODE_ATTEMPTS),
        gt(authChallenges.expiresAt, new Date(now)),
      ),
    )
    .returning({
      id: authChallenges.id,
      secretHash: authChallenges.secretHash,
      payload: authChallenges.payload,
    });
  const challenge = tried.find(
    (c) =>
      (c.payload as { email?: unknown }).email === params.email &&
      sameHash(bindCodeHash(deps.apiKeyCipher, c.id, params.code), c.secretHash),
  );
  if (!challenge) throw new RpcError(ERROR_CODES.BIND_CODE_INVALID);
  if (await isTakenByOther(deps, caller.userId, params.email))
    throw new RpcError(ERROR_CODES.EMAIL_TAKEN);

  // argon2 outside the transaction: it is slow on purpose.
  const passwordHash = password === null ? null : await deps.passwords.hash(password);
  try {
    await deps.db.transaction(async (tx) => {
      const used = await tx
        .update(authChallenges)
        .set({ usedAt: new Date(now) })
        .where(and(eq(authChallenges.id, challenge.id), isNull(authChallenges.usedAt)))
        .returning({ id: authChallenges.id });
      if (used.length === 0) throw new RpcError(ERROR_CODES.BIND_CODE_INVALID);
      const bound = await tx
        .update(users)
        .set({
          email: params.email,
          mailConfirmedAt: new Date(now),
          ...(passwordHash === null ? {} : { passwordHash }),
          updatedAt: new Date(now),
        })
        .where(and(eq(users.id, caller.userId), isNull(users.email)))
        .returning({ id: users.id });
      if (bound.length === 0) throw new RpcError(ERROR_CODES.EMAIL_ALREADY_BOUND);
    });
  } catch (err) {
    // Another user took the address between the check and the write (users_email_unique).
    if (isUniqueViolation(err)) throw new RpcError(ERROR_CODES.EMAIL_TAKEN);
    throw err;
  }
  return { email: params.email };
}
