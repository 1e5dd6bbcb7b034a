import { ERROR_CODES, type TLimitType } from '@rpc/contract';
import { RpcError } from '../rpc/errors';
import type { TActionRules, TThrottleAction, TThrottleRules } from './rules';
import type { TThrottleRule, TThrottleStore } from './throttle';

export type TThrottle = {
  /**
   * Counts one attempt of `action` against each of its counters (IP; e-mail and e-mail+IP when an e-mail is given
   * and the action has those rules); past any limit throws 10429 with the method's limitType and when the
   * attempts reset.
   */
  enforce: (args: {
    action: TThrottleAction;
    email: string | null;
    ip: string;
    limitType: TLimitType;
    /**
     * Asked only when the per-e-mail cap is the sole counter past its limit; true lets the attempt through.
     * Login uses it so a crowd of IPs guessing one address cannot lock the owner out where they signed in before.
     */
    isKnownPlace?: () => Promise<boolean>;
  }) => Promise<void>;
  /** Starts the per-e-mail counter of `action` afresh (login after a password reset proved the mailbox). */
  resetEmail: (args: { action: TThrottleAction; email: string }) => Promise<void>;
  close: () => Promise<void>;
};

type TScope = 'ip' | 'email' | 'emailIp';

export function throttleKey(
  action: TThrottleAction,
  scope: TScope,
  o: { email?: string; ip?: string },
): string {
  if (scope === 'ip') return `${action}:ip:${o.ip}`;
  if (scope === 'email') return `${action}:email:${o.email}`;
  // The IP goes last: IPs hold no '|', so the key stays unambiguous whatever the address contains.
  return `${action}:emailIp:${o.email}|${o.ip}`;
}

function countersOf(
  action: TThrottleAction,
  rule: TActionRules,
  email: string | null,
  ip: string,
): Array<{ scope: TScope; key: string; rule: TThrottleRule }> {
  const counters: Array<{ scope: TScope; key: string; rule: TThrottleRule }> = [
    { scope: 'ip', key: throttleKey(action, 'ip', { ip }), rule: rule.perIp },
  ];
  if (email !== null && rule.perEmail)
    counters.push({
      scope: 'email',
      key: throttleKey(action, 'email', { email }),
      rule: rule.perEmail,
    });
  if (email !== null && rule.perEmailAndIp)
    counters.push({
      scope: 'emailIp',
      key: throttleKey(action, 'emailIp', { email, ip }),
      rule: rule.perEmailAndIp,
    });
  return counters;
}

export function createThrottle(store: TThrottleStore, rules: TThrottleRules): TThrottle {
  return {
    enforce: async ({ action, email, ip, limitType, isKnownPlace }) => {
      const hits = await Promise.all(
        countersOf(action, rules[action], email, ip).map(async (c) => ({
          scope: c.scope,
          limit: c.rule.limit,
          ...(await store.hit(c.key, c.rule.windowMs)),
        })),
      );
      const over = hits.filter((h) => h.count > h.limit);
      if (over.length === 0) return;
      if (over.every((h) => h.scope === 'email') && isKnownPlace && (await isKnownPlace())) return;
      throw new RpcError(ERROR_CODES.RATE_LIMITED, {
        limitType,
        attemptsExpireAt: Math.max(...over.map((h) => h.resetAt)),
      });
    },
    resetEmail: ({ action, email }) => store.reset(throttleKey(action, 'email', { email })),
    close: () => store.close(),
  };
}
