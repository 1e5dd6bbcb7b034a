import {
  CONFIRM_CODE_TTL_MS,
  ERROR_CODES,
  METHODS,
  type TParams,
  type TResult,
} from '@rpc/contract';
import { users } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { isUniqueViolation } from '../../lib/db-errors';
import type { TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import type { raiseNotice } from '../notices/raise-notice';
import { insertUser } from './insert-user';
import { issueCode } from './one-time-codes';
import { sendAccountMail } from './send-account-mail';

type TOptions = Pick<
  TRpcContext,
  'db' | 'mailer' | 'passwords' | 'clock' | 'logger' | 'config' | 'throttle' | 'ip' | 'noticeBus'
> &
  TParams<'hub_register'>;

/** The default nickname: the mailbox part of the address, within the nickname limit. */
export function defaultNickname(email: string): string {
  return (email.split('@')[0] ?? '').slice(0, 32) || 'user';
}

/**
 * Creates user + personal account + owner membership + register-gift RU credit and notice + confirm code in one
 * transaction, then mails the link.
 */
export async function register(o: TOptions): Promise<TResult<'hub_register'>> {
  return createUser(o);
}

/**
 * hub_registerTeam: a team-type user (SPEC §3 userType team) with a personal account and a first team it owns.
 * The register gift goes to the team, where a team-type user works (SPEC §6 sends it straight in).
 */
export async function registerTeam(
  o: Omit<TOptions, keyof TParams<'hub_register'>> & TParams<'hub_registerTeam'>,
): Promise<TResult<'hub_registerTeam'>> {
  return createUser(o, { name: o.teamName, nickname: o.nickname });
}

async function createUser(
  o: TOptions,
  team?: { name: string; nickname: string | undefined },
): Promise<TResult<'hub_register'>> {
  await o.throttle.enforce({
    action: 'register',
    email: o.email,
    ip: o.ip,
    limitType: METHODS.hub_register.limitType ?? 'type1',
  });
  if (o.password !== o.confirmPassword) throw new RpcError(ERROR_CODES.PASSWORD_MISMATCH);

  const [existing] = await o.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, o.email))
    .limit(1);
  if (existing) throw new RpcError(ERROR_CODES.EMAIL_TAKEN);

  // Hash outside the transaction: argon2 is slow on purpose, and a transaction should not wait on it.
  const passwordHash = await o.passwords.hash(o.password);
  const now = o.clock.now();
  const language = o.language ?? 'en';
  const nickname = team?.nickname ?? defaultNickname(o.email);

  let code: string;
  let giftNotices: Awaited<ReturnType<typeof raiseNotice>> = [];
  try {
    code = await o.db.transaction(async (tx) => {
      const made = await insertUser(tx, {
        email: o.email,
        passwordHash,
        nickname,
        language,
        // The sign-up form carries the terms checkbox, so an e-mail sign-up starts initialised.
        initialized: true,
        ...(team ? { team: { name: team.name, ip: o.ip } } : {}),
        giftRu: o.config.registerGiftRu,
        at: now,
      });
      giftNotices = made.notices;
      return issueCode(tx, {
        userId: made.userId,
        purpose: 'email_confirm',
        now,
        ttlMs: CONFIRM_CODE_TTL_MS,
      });
    });
  } catch (err) {
    // Two sign-ups for one address at once: the unique index decides, the loser gets 10201.
    if (isUniqueViolation(err)) throw new RpcError(ERROR_CODES.EMAIL_TAKEN, { cause: err });
    throw err;
  }

  o.noticeBus.push(giftNotices);

  const confirmMailSent = await sendAccountMail({
    ...o,
    to: o.email,
    language,
    kind: 'email_confirm',
    code,
  });
  return { email: o.email, confirmMailSent };
}
