/** How a console API method is declared: once, here, for the server, the web app and the OpenRPC document. */
import type { z } from 'zod';
import type { TLimitType } from './errors';

export type TMethodAuth =
  /** anyone may call it */
  | 'none'
  /** needs a valid session; acts on the user's personal account, or on the team named by X-Team-Id */
  | 'user';

export type TMethodDef<
  TName extends string = string,
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> = {
  name: TName;
  summary: string;
  params: P;
  result: R;
  auth: TMethodAuth;
  /** the client shows no error popup for this call (SPEC §8) */
  hideError?: boolean;
  /** the client shows no 10429 popup for this call */
  hideLimit?: boolean;
  /**
   * The call is about the session itself, not an account: X-Team-Id is not checked. hub_logout must work
   * with a team id that went stale (the user left the team), or the client could never sign out.
   */
  ignoresTeamHeader?: boolean;
  /** which wording the client uses for a 10429 from this call (SPEC §8; default type1) */
  limitType?: TLimitType;
  /** an identical call in flight is NOT cancelled when this one starts (SPEC §9) */
  keepDuplicates?: boolean;
};

export function defineMethod<TName extends string, P extends z.ZodType, R extends z.ZodType>(
  def: TMethodDef<TName, P, R>,
): TMethodDef<TName, P, R> {
  return def;
}
