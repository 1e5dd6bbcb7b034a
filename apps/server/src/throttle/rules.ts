/** Which calls are throttled, by what, and how hard. One table so the limits are reviewed in one place. */
import type { TThrottleRule } from './throttle';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export type TThrottleAction =
  'login' | 'register' | 'emailExists' | 'changePassword' | 'confirmMail' | 'resetMail';

export type TThrottleRules = Record<
  TThrottleAction,
  { perEmail: TThrottleRule; perIp: TThrottleRule }
>;

export const DEFAULT_THROTTLE_RULES: TThrottleRules = {
  // Password guessing: per e-mail stops targeted guessing, per IP stops spraying many e-mails.
  login: {
    perEmail: { limit: 10, windowMs: 15 * MINUTE },
    perIp: { limit: 30, windowMs: 15 * MINUTE },
  },
  register: { perEmail: { limit: 5, windowMs: HOUR }, perIp: { limit: 10, windowMs: HOUR } },
  // Address enumeration: the sign-up form checks as the user types, so per IP is generous.
  emailExists: {
    perEmail: { limit: 20, windowMs: HOUR },
    perIp: { limit: 60, windowMs: 15 * MINUTE },
  },
  changePassword: {
    perEmail: { limit: 5, windowMs: 15 * MINUTE },
    perIp: { limit: 30, windowMs: 15 * MINUTE },
  },
  // Mail bombing: few mails per address, a few more per sender IP.
  confirmMail: { perEmail: { limit: 5, windowMs: HOUR }, perIp: { limit: 20, windowMs: HOUR } },
  resetMail: { perEmail: { limit: 5, windowMs: HOUR }, perIp: { limit: 20, windowMs: HOUR } },
};
