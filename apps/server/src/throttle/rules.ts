/** Which calls are throttled, by what, and how hard. One table so the limits are reviewed in one place. */
import type { TThrottleRule } from './throttle';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export type TThrottleAction =
  | 'login'
  | 'register'
  | 'emailExists'
  | 'changePassword'
  | 'confirmMail'
  | 'resetMail'
  | 'oneTimeCode'
  | 'teamInvite'
  | 'walletSignIn'
  | 'oauthSignIn'
  | 'bindMail'
  | 'twoFactor'
  | 'supportTicket'
  | 'eventTracking'
  | 'avatarUpload'
  | 'invoicePdf';

/** The counters of one action: always per client IP, optionally per e-mail and per (e-mail, IP) pair. */
export type TActionRules = {
  perIp: TThrottleRule;
  perEmail?: TThrottleRule;
  perEmailAndIp?: TThrottleRule;
};

export type TThrottleRules = Record<TThrottleAction, TActionRules>;

export const DEFAULT_THROTTLE_RULES: TThrottleRules = {
  // Password guessing. Per (e-mail, IP) stops one source guessing one account without touching the owner elsewhere;
  // per IP stops spraying many addresses. The per-e-mail cap is looser and only bounds guessing spread over many
  // IPs; it never holds the owner on a place the address has signed in from (login.ts), and a password reset lifts it.
  login: {
    perIp: { limit: 30, windowMs: 15 * MINUTE },
    perEmailAndIp: { limit: 10, windowMs: 15 * MINUTE },
    perEmail: { limit: 100, windowMs: HOUR },
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
  // The four methods that take a mailed code share one per-IP counter. Codes are 256-bit, so this is not what keeps
  // them secret; it stops a client probing codes (and the database) at full speed. Opening one link takes two calls.
  oneTimeCode: { perIp: { limit: 30, windowMs: 15 * MINUTE } },
  // Invitations mail any address: few per invited address, a working day's worth per inviting IP.
  teamInvite: { perEmail: { limit: 5, windowMs: HOUR }, perIp: { limit: 60, windowMs: HOUR } },
  // Wallet and third-party sign-in: nonces and states are 128-bit and single use, so this only bounds the rows a
  // client can make us write and the signatures it can make us check.
  walletSignIn: { perIp: { limit: 60, windowMs: 15 * MINUTE } },
  oauthSignIn: { perIp: { limit: 60, windowMs: 15 * MINUTE } },
  // Bind-address codes: per address (the "e-mail" counter) like the other mails, and per IP.
  bindMail: { perEmail: { limit: 5, windowMs: HOUR }, perIp: { limit: 20, windowMs: HOUR } },
  // Six-digit codes (TOTP, backup, mailed bind codes): the "e-mail" counter is keyed `user:<id>`, so guessing is
  // bounded per user across sessions and IPs; 10 tries per 15 minutes leaves ~1 in 100,000 per window.
  twoFactor: {
    perEmail: { limit: 10, windowMs: 15 * MINUTE },
    perIp: { limit: 60, windowMs: 15 * MINUTE },
  },
  // Support tickets mail the operator: a few an hour per user (the "e-mail" counter keyed `user:<id>`), more per IP
  // for offices behind one address. Only well-formed tickets count (services/support/create-support-ticket.ts).
  supportTicket: {
    perEmail: { limit: 10, windowMs: HOUR },
    perIp: { limit: 30, windowMs: HOUR },
  },
  // Tracking batches: the web app sends one every ~10 s at most (6 a minute); room for pagehide and a few tabs.
  eventTracking: {
    perEmail: { limit: 30, windowMs: MINUTE },
    perIp: { limit: 120, windowMs: MINUTE },
  },
  // Each upload is decoded and re-encoded (CPU and memory): the "e-mail" counter is keyed `user:<id>`, so one user
  // gets 20 an hour whatever their sessions and IPs; per IP bounds a crowd of accounts behind one address.
  avatarUpload: {
    perEmail: { limit: 20, windowMs: HOUR },
    perIp: { limit: 60, windowMs: HOUR },
  },
  // The public invoice PDF (GET /invoice-pdf): anyone may ask, and each answer is a PDF rendered afresh. Codes are
  // long and random, so this only bounds the rendering (and the code probing) one client can make us do; a person
  // downloading an invoice a few times never meets it.
  invoicePdf: { perIp: { limit: 60, windowMs: 15 * MINUTE } },
};

/** Every limit multiplied by `factor` (THROTTLE_LIMIT_FACTOR, for test rigs); windows unchanged. */
export function scaleThrottleRules(rules: TThrottleRules, factor: number): TThrottleRules {
  if (factor === 1) return rules;
  const scale = (r: TThrottleRule | undefined) =>
    r && { ...r, limit: Math.max(1, Math.round(r.limit * factor)) };
  return Object.fromEntries(
    Object.entries(rules).map(([action, r]) => [
      action,
      {
        perIp: scale(r.perIp),
        ...(r.perEmail ? { perEmail: scale(r.perEmail) } : {}),
        ...(r.perEmailAndIp ? { perEmailAndIp: scale(r.perEmailAndIp) } : {}),
      },
    ]),
  ) as TThrottleRules;
}
