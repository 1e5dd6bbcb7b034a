/** Field schemas of the sign-in methods (wallet, OAuth / OpenID Connect, e-mail binding, two-factor, sessions). */
import { z } from 'zod';
import { ZEmailSchema } from '../account/schemas';

/** An Ethereum address, any case; the server compares and stores it lowercased. */
export const ZWalletAddressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 0x-prefixed 20-byte address');

/** An EIP-155 chain id. */
export const ZChainIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A Sign-In with Ethereum (EIP-4361) message as the server issued it. */
export const ZSiweMessageSchema = z.string().min(1).max(4096);

/** A 65-byte signature, or a longer one from a smart-contract wallet (EIP-1271 / ERC-6492). */
export const ZSignatureSchema = z
  .string()
  .max(16_386)
  .regex(/^0x([0-9a-fA-F]{2}){65,}$/, 'expected a 0x-prefixed hex signature');

/** What a challenge is for: signing in (or creating an account), or binding to the signed-in user. */
export const ZChallengePurposeSchema = z.enum(['login', 'bind']);

export const ZOauthProviderIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'unknown provider');

/** The authorization code the provider sent back to /auth/callback or /bind/callback. */
export const ZOauthCodeSchema = z
  .string()
  .min(1)
  .max(2048)
  .regex(/^[\x21-\x7e]+$/, 'malformed code');

/** The state we issued with the authorization URL (and opaque tickets): URL-safe random tokens. */
export const ZOpaqueTokenSchema = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, 'malformed token');

/** A six-digit code: TOTP, or the code mailed to bind an address. */
export const ZSixDigitCodeSchema = z.string().regex(/^\d{6}$/, 'expected six digits');

/** A TOTP code, or a backup code (xxxx-xxxx, Crockford base32, dash and case optional). */
export const ZTwoFactorCodeSchema = z
  .string()
  .trim()
  .regex(/^(\d{6}|[0-9A-Za-z]{4}-?[0-9A-Za-z]{4})$/, 'expected a six-digit code or a backup code');

/** Every way a session can be opened: the result of hub_login, hub_metamaskRegister, hub_oauthRegister… */
export const ZSignInResultSchema = z.object({
  token: z.string(),
  expiresAt: z.number().int(),
  /**
   * Two-factor sign-in is on: the token is good only for hub_verifyTwoFactorLogin (and hub_logout) until a code
   * is given, and expires in minutes.
   */
  twoFactorRequired: z.boolean(),
});
export type TSignInResult = z.infer<typeof ZSignInResultSchema>;

export const ZOauthProviderSchema = z.object({
  id: z.string(),
  name: z.string(),
});

export const ZOauthRegistrationSchema = z.object({
  /** hand to hub_oauthRegister within 15 minutes to create the account */
  ticket: z.string(),
  provider: z.string(),
  /** the provider's address for the subject, if it shared one */
  email: z.string().nullable(),
  name: z.string().nullable(),
  /** a user of ours already has this address: sign in as them and bind the provider from the profile instead */
  emailTaken: z.boolean(),
});

export const ZSessionSchema = z.object({
  id: z.string(),
  createdAt: z.number().int(),
  lastSeenAt: z.number().int().nullable(),
  expiresAt: z.number().int(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** password, wallet, or the OAuth provider id */
  method: z.string(),
  current: z.boolean(),
});

export const ZBindEmailParamsSchema = z.object({
  email: ZEmailSchema,
  code: ZSixDigitCodeSchema,
  /** md5 digests (SPEC §5); required when the account has no password yet, ignored otherwise */
  password: z
    .string()
    .regex(/^[0-9a-f]{32}$/, 'expected the md5 digest of the password')
    .optional(),
  confirmPassword: z
    .string()
    .regex(/^[0-9a-f]{32}$/, 'expected the md5 digest of the password')
    .optional(),
});
