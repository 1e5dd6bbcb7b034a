/**
 * Two-factor sign-in with TOTP (RFC 6238, 30-second steps, six digits, SHA-1 as every authenticator app expects)
 * and one-time backup codes. The secret is sealed with the API key cipher (bound to the user's id), a time step is
 * never accepted twice, and backup codes are stored only as keyed hashes.
 */
import { randomInt } from 'node:crypto';
import { ERROR_CODES, METHODS, type TParams, type TResult } from '@rpc/contract';
import { sessions, twoFactorBackupCodes, users, type TExecutor } from '@rpc/db';
import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { TApiKeyCipher } from '../../lib/api-key-cipher';
import type { TDeps } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { endOtherSessions } from './session-list';

export const TOTP_ISSUER = 'RPC Console';
const TOTP_PERIOD_S = 30;
/** Codes of the step before and after are accepted too: phone clocks drift. */
const TOTP_WINDOW = 1;
const SECRET_BYTES = 20;
export const BACKUP_CODE_COUNT = 10;
/** Crockford's base32 alphabet, lowercase: no i, l, o or u to misread. */
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

export type TTwoFactorDeps = Pick<TDeps, 'db' | 'apiKeyCipher' | 'clock' | 'throttle'>;

/** The signed-in user asking; `ip` keys the throttle's per-IP counter. */
export type TTwoFactorCaller = { userId: string; ip: string };

/**
 * How recent a sign-in must be for a user without a password to turn two-factor sign-in on: the proof that the
 * person at the keyboard still holds the wallet or the provider account, not only a token taken from a browser.
 */
export const RECENT_SIGN_IN_MS = 15 * 60_000;

/** Additional data of the sealed secret: a sealed value copied to another user does not open there. */
const sealId = (userId: string): string => `totp:${userId}`;

function totpOf(base32: string, label = 'user'): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    secret: Secret.fromBase32(base32),
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
  });
}

/** The time step a TOTP code belongs to, or null when it matches none within the window. */
function matchingStep(base32: string, code: string, now: number): number | null {
  const delta = totpOf(base32).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return null;
  return TOTP.counter({ period: TOTP_PERIOD_S, timestamp: now }) + delta;
}

/** Backup codes as typed: dash, spaces and case ignored, and Crockford's look-alikes (i, l → 1; o → 0) folded. */
export function normaliseBackupCode(code: string): string {
  return code.trim().toLowerCase().replace(/[-\s]/g, '').replace(/[il]/g, '1').replace(/o/g, '0');
}

/**
 * Keyed (HMAC-SHA-256 under a key derived from API_KEY_SECRET) rather than a bare SHA-256: a backup code has only
 * 40 bits, which a leaked table alone would give up to brute force; without the server's secret it gives nothing.
 * The user id is in the input, so equal codes of two users hash apart.
 */
function backupCodeHash(cipher: TApiKeyCipher, userId: string, code: string): string {
  return cipher.hash(`2fa-backup:${userId}:${normaliseBackupCode(code)}`);
}

function newBackupCode(): string {
  const chars = Array.from({ length: 8 }, () => CROCKFORD[randomInt(CROCKFORD.length)]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

/** Replaces every backup code of the user with fresh ones; answers them in clear, the only time they exist so. */
async function replaceBackupCodes(
  db: TExecutor,
  cipher: TApiKeyCipher,
  userId: string,
  now: number,
): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < BACKUP_CODE_COUNT) codes.add(newBackupCode());
  await db.delete(twoFactorBackupCodes).where(eq(twoFactorBackupCodes.userId, userId));
  await db.insert(twoFactorBackupCodes).values(
    [...codes].map((code) => ({
      userId,
      codeHash: backupCodeHash(cipher, userId, code),
      createdAt: new Date(now),
    })),
  );
  return [...codes];
}

type TCodeMethod =
  | 'hub_enableTwoFactor'
  | 'hub_disableTwoFactor'
  | 'hub_regenerateBackupCodes'
  | 'hub_verifyTwoFactorLogin'
  | 'hub_changePassword'
  | 'hub_deleteApiKey'
  | 'hub_bindEmail';

/**
 * One attempt at a six-digit code against the per-user counter (any session, any IP), before any work: the
 * per-session and per-challenge limits alone would let a guesser start over with a new sign-in or mail.
 */
export function enforceTwoFactorThrottle(
  deps: Pick<TDeps, 'throttle'>,
  caller: TTwoFactorCaller,
  method: TCodeMethod,
): Promise<void> {
  return deps.throttle.enforce({
    action: 'twoFactor',
    email: `user:${caller.userId}`,
    ip: caller.ip,
    limitType: METHODS[method].limitType ?? 'type1',
  });
}

/**
 * Whether `code` is a current TOTP code or an unused backup code of the user, spending it if so. A TOTP step must
 * be later than the last one accepted and is recorded by a conditional update, so two requests with one code cannot
 * both pass; a backup code is marked used the same way. False when two-factor sign-in is off.
 */
export async function verifyTwoFactorCode(
  db: TExecutor,
  cipher: TApiKeyCipher,
  userId: string,
  code: string,
  now: number,
): Promise<boolean> {
  const [user] = await db
    .select({ sealed: users.totpSecretSealed, lastStep: users.totpLastStep })
    .from(users)
    .where(and(eq(users.id, userId), isNotNull(users.totpEnabledAt)))
    .limit(1);
  if (!user?.sealed) return false;

  const typed = code.trim();
  if (/^\d{6}$/.test(typed)) {
    const step = matchingStep(cipher.open(sealId(userId), user.sealed), typed, now);
    if (step === null || (user.lastStep !== null && step <= user.lastStep)) return false;
    const taken = await db
      .update(users)
      .set({ totpLastStep: step })
      .where(
        and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))),
      )
      .returning({ id: users.id });
    return taken.length === 1;
  }

  const used = await db
    .update(twoFactorBackupCodes)
    .set({ usedAt: new Date(now) })
    .where(
      and(
        eq(twoFactorBackupCodes.userId, userId),
        eq(twoFactorBackupCodes.codeHash, backupCodeHash(cipher, userId, typed)),
        isNull(twoFactorBackupCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorBackupCodes.id });
  return used.length === 1;
}

/**
 * The gate of sensitive changes (password change, key deletion): with two-factor sign-in on, a code is required
 * (10219) and must be right (10220). Call it before changing anything. Without two-factor sign-in it does nothing.
 */
export async function requireTwoFactorCode(
  deps: TTwoFactorDeps,
  caller: TTwoFactorCaller,
  o: { code: string | undefined; method: 'hub_changePassword' | 'hub_deleteApiKey' },
): Promise<void> {
  if (!(await isTwoFactorOn(deps.db, caller.userId))) return;
  if (o.code === undefined) throw new RpcError(ERROR_CODES.TWO_FACTOR_REQUIRED);
  await enforceTwoFactorThrottle(deps, caller, o.method);
  await spendCode(deps, caller.userId, o.code);
}

/** Spends a right code; a wrong one is a 10220. */
async function spendCode(deps: TTwoFactorDeps, userId: string, code: string): Promise<void> {
  const now = deps.clock.now();
  const right = await verifyTwoFactorCode(deps.db, deps.apiKeyCipher, userId, code, now);
  if (!right) throw new RpcError(ERROR_CODES.TWO_FACTOR_INVALID);
}

/** Whether the user has two-factor sign-in on (10219 is owed before a code is even looked at). */
export async function isTwoFactorOn(db: TExecutor, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNotNull(users.totpEnabledAt)))
    .limit(1);
  return row !== undefined;
}

export async function getTwoFactorStatus(
  deps: Pick<TDeps, 'db'>,
  caller: Pick<TTwoFactorCaller, 'userId'>,
): Promise<TResult<'hub_getTwoFactorStatus'>> {
  const [user] = await deps.db
    .select({ enabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, caller.userId))
    .limit(1);
  const enabledAt = user?.enabledAt ?? null;
  const [left] = await deps.db
    .select({ n: count() })
    .from(twoFactorBackupCodes)
    .where(
      and(eq(twoFactorBackupCodes.userId, caller.userId), isNull(twoFactorBackupCodes.usedAt)),
    );
  return {
    enabled: enabledAt !== null,
    enabledAt: enabledAt?.getTime() ?? null,
    backupCodesLeft: enabledAt === null ? 0 : (left?.n ?? 0),
  };
}

/** Offers a fresh secret, kept sealed as pending until a code from it turns two-factor sign-in on. */
export async function startTwoFactorSetup(
  deps: Pick<TDeps, 'db' | 'apiKeyCipher' | 'clock'>,
  caller: Pick<TTwoFactorCaller, 'userId'> & { sessionId: string },
): Promise<TResult<'hub_startTwoFactorSetup'>> {
  const [user] = await deps.db
    .select({
      email: users.email,
      nickname: users.nickname,
      enabledAt: users.totpEnabledAt,
      hasPassword: isNotNull(users.passwordHash),
    })
    .from(users)
    .where(eq(users.id, caller.userId))
    .limit(1);
  if (!user) throw new RpcError(ERROR_CODES.SESSION_MISSING);
  if (user.enabledAt) throw new RpcError(ERROR_CODES.TWO_FACTOR_ALREADY_ON);
  // Said before the user scans anything; hub_enableTwoFactor checks it again.
  if (!user.hasPassword) await requireRecentSignIn(deps, caller.sessionId);
  const secret = new Secret({ size: SECRET_BYTES }).base32;
  await deps.db
    .update(users)
    .set({
      totpPendingSealed: deps.apiKeyCipher.seal(sealId(caller.userId), secret),
      updatedAt: new Date(deps.clock.now()),
    })
    .where(eq(users.id, caller.userId));
  const label = user.email ?? (user.nickname || 'user');
  return { secret, otpauthUrl: totpOf(secret, label).toString() };
}

/** Confirms the offered secret with a code from it; answers the first backup codes. */
export async function enableTwoFactor(
  deps: TTwoFactorDeps & Pick<TDeps, 'passwords' | 'noticeBus'>,
  caller: TTwoFactorCaller & { sessionId: string },
  params: TParams<'hub_enableTwoFactor'>,
): Promise<TResult<'hub_enableTwoFactor'>> {
  // Before the password is looked at too: this counter is what bounds guessing it here.
  await enforceTwoFactorThrottle(deps, caller, 'hub_enableTwoFactor');
  const [user] = await deps.db
    .select({
      enabledAt: users.totpEnabledAt,
      pending: users.totpPendingSealed,
      passwordHash: users.passwordHash,
    })
    .from(users)
    .where(eq(users.id, caller.userId))
    .limit(1);
  if (user?.enabledAt) throw new RpcError(ERROR_CODES.TWO_FACTOR_ALREADY_ON);
  if (!user?.pending) throw new RpcError(ERROR_CODES.TWO_FACTOR_NOT_SET_UP);
  await requireReauthentication(deps, caller, user.passwordHash, params.password);
  const now = deps.clock.now();
  const step = matchingStep(
    deps.apiKeyCipher.open(sealId(caller.userId), user.pending),
    params.code,
    now,
  );
  if (step === null) throw new RpcError(ERROR_CODES.TWO_FACTOR_INVALID);

  const pending = user.pending;
  const done = await deps.db.transaction(async (tx) => {
    // Conditional on the very secret checked: a parallel enable, or a new setup meanwhile, makes this one lose.
    const [turnedOn] = await tx
      .update(users)
      .set({
        totpSecretSealed: pending,
        totpPendingSealed: null,
        totpEnabledAt: new Date(now),
        totpLastStep: step,
        updatedAt: new Date(now),
      })
      .where(
        and(
          eq(users.id, caller.userId),
          isNull(users.totpEnabledAt),
          eq(users.totpPendingSealed, pending),
        ),
      )
      .returning({ id: users.id });
    if (!turnedOn) throw new RpcError(ERROR_CODES.TWO_FACTOR_ALREADY_ON);
    // Whoever else holds a session of this user (a stolen token, a forgotten browser) now has to sign in with a
    // code too: pending sign-ins included, since they were started with the password alone.
    const ended = await endOtherSessions(tx, caller, now);
    const codes = await replaceBackupCodes(tx, deps.apiKeyCipher, caller.userId, now);
    return { codes, ended };
  });
  // After the commit: the other sessions' notice sockets close now, not at the next heartbeat.
  deps.noticeBus.endSessions(done.ended);
  return { backupCodes: done.codes, endedSessions: done.ended.length };
}

/**
 * Proof that the caller is the user, not only someone holding the user's token: the current password when the user
 * has one (10224 when missing, 10207 when wrong), else a sign-in within RECENT_SIGN_IN_MS (10225).
 */
async function requireReauthentication(
  deps: Pick<TDeps, 'db' | 'clock' | 'passwords'>,
  caller: { sessionId: string },
  passwordHash: string | null,
  password: string | undefined,
): Promise<void> {
  if (passwordHash === null) return requireRecentSignIn(deps, caller.sessionId);
  if (password === undefined) throw new RpcError(ERROR_CODES.PASSWORD_REQUIRED);
  if (!(await deps.passwords.verify(passwordHash, password)))
    throw new RpcError(ERROR_CODES.WRONG_PASSWORD);
}

/** 10225 unless the caller's session was opened within RECENT_SIGN_IN_MS. */
export async function requireRecentSignIn(
  deps: Pick<TDeps, 'db' | 'clock'>,
  sessionId: string,
): Promise<void> {
  const [session] = await deps.db
    .select({ createdAt: sessions.createdAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  if (!session || deps.clock.now() - session.createdAt.getTime() > RECENT_SIGN_IN_MS)
    throw new RpcError(ERROR_CODES.RECENT_SIGN_IN_REQUIRED);
}

/** Asks for the code first (10222 when it is off), so a wrong one never touches the state. */
async function checkCodeOfEnabled(
  deps: TTwoFactorDeps,
  caller: TTwoFactorCaller,
  code: string,
  method: 'hub_disableTwoFactor' | 'hub_regenerateBackupCodes',
): Promise<void> {
  await enforceTwoFactorThrottle(deps, caller, method);
  if (!(await isTwoFactorOn(deps.db, caller.userId)))
    throw new RpcError(ERROR_CODES.TWO_FACTOR_NOT_SET_UP);
  await spendCode(deps, caller.userId, code);
}

/** Turns two-factor sign-in off: secrets, replay step and backup codes all go. */
export async function disableTwoFactor(
  deps: TTwoFactorDeps,
  caller: TTwoFactorCaller,
  params: TParams<'hub_disableTwoFactor'>,
): Promise<TResult<'hub_disableTwoFactor'>> {
  await checkCodeOfEnabled(deps, caller, params.code, 'hub_disableTwoFactor');
  const now = new Date(deps.clock.now());
  await deps.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        totpSecretSealed: null,
        totpPendingSealed: null,
        totpEnabledAt: null,
        totpLastStep: null,
        updatedAt: now,
      })
      .where(eq(users.id, caller.userId));
    await tx.delete(twoFactorBackupCodes).where(eq(twoFactorBackupCodes.userId, caller.userId));
  });
  return { success: true };
}

export async function regenerateBackupCodes(
  deps: TTwoFactorDeps,
  caller: TTwoFactorCaller,
  params: TParams<'hub_regenerateBackupCodes'>,
): Promise<TResult<'hub_regenerateBackupCodes'>> {
  await checkCodeOfEnabled(deps, caller, params.code, 'hub_regenerateBackupCodes');
  const now = deps.clock.now();
  const backupCodes = await deps.db.transaction((tx) =>
    replaceBackupCodes(tx, deps.apiKeyCipher, caller.userId, now),
  );
  return { backupCodes };
}
