import { METHODS, RESET_CODE_TTL_MS, type TParams, type TResult } from '@rpc/contract';
import { users } from '@rpc/db';
import { eq } from 'drizzle-orm';
import type { TRpcContext } from '../../rpc/context';
import { issueCode } from './one-time-codes';
import { sendAccountMail } from './send-account-mail';

type TOptions = Pick<
  TRpcContext,
  'db' | 'mailer' | 'clock' | 'logger' | 'config' | 'throttle' | 'ip'
> &
  TParams<'hub_sendResetPasswordMail'>;

/** Mails a reset (or set-password) link if the address is registered; always answers sent. */
export async function sendResetPasswordMail(
  o: TOptions,
): Promise<TResult<'hub_sendResetPasswordMail'>> {
  await o.throttle.enforce({
    action: 'resetMail',
    email: o.email,
    ip: o.ip,
    limitType: METHODS.hub_sendResetPasswordMail.limitType ?? 'type1',
  });
  const [user] = await o.db
    .select({ id: users.id, language: users.language })
    .from(users)
    .where(eq(users.email, o.email))
    .limit(1);
  if (user) {
    const kind = o.purpose === 'set' ? 'password_set' : 'password_reset';
    const code = await issueCode(o.db, {
      userId: user.id,
      purpose: kind,
      now: o.clock.now(),
      ttlMs: RESET_CODE_TTL_MS,
    });
    await sendAccountMail({ ...o, to: o.email, language: user.language, kind, code });
  }
  return { sent: true };
}
