/** What the team services get from a call: the user, the acting account (already checked), the caller's IP. */
import type { TActingAccount, TAuth, TDeps } from '../../rpc/context';

export type TTeamCaller = { userId: string; account: TActingAccount; ip: string };

export type TTeamDeps = Pick<
  TDeps,
  'db' | 'clock' | 'noticeBus' | 'mailer' | 'logger' | 'config' | 'keyEvents' | 'throttle'
>;

export function teamCaller(auth: TAuth, ip: string): TTeamCaller {
  return { userId: auth.userId, account: auth.account, ip };
}
