/** How a console API method is declared: once, here, for the server, the web app and the OpenRPC document. */
import type { z } from 'zod';
import type { TLimitType } from './errors';
import type { TPermission } from './teams/permissions';

export type TMethodAuth =
  /** anyone may call it */
  | 'none'
  /** needs a valid session; acts on the user's personal account, or on the team named by X-Team-Id */
  | 'user';

/**
 * Who may call a method, declared once beside it: 'none', or a session plus a permission (teams/permissions.ts)
 * that the caller's role on the acting account must hold. The dispatcher enforces it; handlers never look.
 */
export type TMethodAccess =
  | { auth: 'none'; permission?: never; teamFrom?: never }
  | {
      auth: 'user';
      permission: TPermission;
      /**
       * Where the acting account comes from: the X-Team-Id header (default), or the method's own `teamId` param
       * (team management on /rpc/team, which a user reaches from a personal login as well). Either way the
       * dispatcher checks membership and role before the handler runs.
       */
      teamFrom?: 'header' | 'params';
    };

export type TMethodDef<
  TName extends string = string,
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> = {
  name: TName;
  summary: string;
  params: P;
  result: R;
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
  /**
   * The method only reads: a call made as a team under an audited permission (keys, billing, members, owner)
   * is not written to the team's audit log.
   */
  readOnly?: boolean;
  /**
   * A session still waiting for its two-factor code may call this method (only hub_verifyTwoFactorLogin and
   * hub_logout): every other method answers such a session 10104.
   */
  allowsTwoFactorPending?: boolean;
} & TMethodAccess;

export function defineMethod<TName extends string, P extends z.ZodType, R extends z.ZodType>(
  def: TMethodDef<TName, P, R>,
): TMethodDef<TName, P, R> {
  return def;
}
