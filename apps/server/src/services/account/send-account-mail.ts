/** Builds the link for a code and mails it in the user's language. A failed send is logged, not thrown. */
import type { TLogger } from '../../lib/logger';
import type { TLanguage } from '@rpc/contract';
import type { TMailer } from '../../mail/mailer';
import { renderAccountMail, type TAccountMailKind } from '../../mail/templates/account';
import type { TAppConfig } from '../../rpc/context';

/**
 * Web routes of SPEC §2 that read the code from the query string. The sign-up confirmation goes to
 * /activate-account, not /email-confirm: the route guard lets a signed-out user open activate-account
 * (SPEC §2 public list) but sends /email-confirm to / — and a new user cannot sign in before confirming.
 */
const LINK_PATHS: Record<TAccountMailKind, string> = {
  email_confirm: '/activate-account',
  password_reset: '/reset-password/checking',
  password_set: '/set-password/checking',
};

export function accountLink(publicUrl: string, kind: TAccountMailKind, code: string): string {
  return `${publicUrl}${LINK_PATHS[kind]}?code=${encodeURIComponent(code)}`;
}

export async function sendAccountMail(o: {
  mailer: TMailer;
  logger: TLogger;
  config: TAppConfig;
  to: string;
  language: TLanguage;
  kind: TAccountMailKind;
  code: string;
}): Promise<boolean> {
  const mail = renderAccountMail(
    o.kind,
    o.language,
    accountLink(o.config.publicUrl, o.kind, o.code),
  );
  try {
    await o.mailer.send({ ...mail, to: o.to });
    return true;
  } catch (err) {
    // The caller's write already committed; the user can ask for another mail.
    o.logger.error({ err, to: o.to, kind: o.kind }, 'mail send failed');
    return false;
  }
}
