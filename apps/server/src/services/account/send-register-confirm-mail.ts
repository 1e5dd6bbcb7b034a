import { CONFIRM_CODE_TTL_MS, METHODS, type TParams, type TResult } from '@rpc/contract';
import { users } from '@rpc/db';
import { eq } from 'drizzle-orm';
import type { TRpcContext } from '../../rpc/context';
import { issueCode } from './one-time-codes';
import { sendAccountMail } from './send-account-mail';

type TOptions = Pick<
  TRpcContext,
  'db' | 'mailer' | 'clock' | 'logger' | 'config' | 'throttle' | 'ip'
> &
  TParams<'hub_sendRegisterConfirmMail'>;

/** Mails a fresh confirmation link to an unconfirmed user; answers the same whatever the address, so it reveals nothing. */
export async function sendRegisterConfirmMail(
  o: TOptions,
): Promise<TResult<'hub_sendRegisterConfirmMail'>> {
  await o.throttle.enforce({
    action: 'confirmMail',
    email: o.email,
    ip: o.ip,
    limitType: METHODS.hub_sendRegisterConfirmMail.limitType ?? 'type1',
  });
  const [user] = await o.db
    .select({ id: users.id, language: users.language, mailConfirmedAt: users.mailConfirmedAt })
    .from(users)
    .where(eq(users.email, o.email))
    .limit(1);
  if (user && !user.mailConfirmedAt) {
    const now = o.clock.now();
    const code = await issueCode(o.db, {
      userId: user.id,
      purpose: 'email_confirm',
      now,
      ttlMs: CONFIRM_CODE_TTL_MS,
    });
    await sendAccountMail({
      ...o,
      to: o.email,
      language: user.language,
      kind: 'email_confirm',
      code,
    });
  }
  return { sent: true };
}
