import { ERROR_CODES, type TLimitType } from '@rpc/contract';
import { RpcError } from '../rpc/errors';
import type { TThrottleAction, TThrottleRules } from './rules';
import type { TThrottleStore } from './throttle';

export type TThrottle = {
  /**
   * Counts one attempt of `action` for this e-mail and this IP; past either limit throws 10429
   * with the method's limitType and when the attempts reset.
   */
  enforce: (args: {
    action: TThrottleAction;
    email: string | null;
    ip: string;
    limitType: TLimitType;
  }) => Promise<void>;
  close: () => Promise<void>;
};

export function createThrottle(store: TThrottleStore, rules: TThrottleRules): TThrottle {
  return {
    enforce: async ({ action, email, ip, limitType }) => {
      const rule = rules[action];
      const hits = await Promise.all([
        store
          .hit(`${action}:ip:${ip}`, rule.perIp.windowMs)
          .then((h) => ({ ...h, limit: rule.perIp.limit })),
        ...(email
          ? [
              store
                .hit(`${action}:email:${email}`, rule.perEmail.windowMs)
                .then((h) => ({ ...h, limit: rule.perEmail.limit })),
            ]
          : []),
      ]);
      const over = hits.filter((h) => h.count > h.limit);
      if (over.length > 0) {
        throw new RpcError(ERROR_CODES.RATE_LIMITED, {
          limitType,
          attemptsExpireAt: Math.max(...over.map((h) => h.resetAt)),
        });
      }
    },
    close: () => store.close(),
  };
}
