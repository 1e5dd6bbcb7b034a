/**
 * Sign-in methods beyond e-mail and password (SPEC §7 Account: hub_metamaskRegister, hub_bindMetamask,
 * hub_unbindMetamask, hub_checkOauthCode, hub_oauthRegister, hub_bindOauth, hub_unbindOauth, hub_noPassword,
 * hub_preBindEmail, hub_sendBindConfirmMail, hub_bindEmail), and what a serious console adds around them: the SIWE
 * nonce and the OAuth URLs they need, two-factor sign-in with TOTP and backup codes, and the session list.
 */
import { z } from 'zod';
import { defineMethod } from '../define-method';
import {
  ZEmailSchema,
  ZLanguageSchema,
  ZPasswordDigestSchema,
  ZSuccessSchema,
} from '../account/schemas';
import {
  ZBindEmailParamsSchema,
  ZChainIdSchema,
  ZChallengePurposeSchema,
  ZOauthCodeSchema,
  ZOauthProviderIdSchema,
  ZOauthRegistrationSchema,
  ZOpaqueTokenSchema,
  ZSessionSchema,
  ZSignInResultSchema,
  ZSignatureSchema,
  ZSiweMessageSchema,
  ZTwoFactorCodeSchema,
  ZWalletAddressSchema,
} from './schemas';

// ── Wallet (Sign-In with Ethereum, EIP-4361) ─────────────────────────────────────────────────────────────────

export const hubGetMetamaskNonce = defineMethod({
  name: 'hub_getMetamaskNonce',
  summary:
    'Builds the Sign-In with Ethereum message for an address and chain, with a one-use nonce valid 10 minutes; the wallet signs it for hub_metamaskRegister (purpose login) or hub_bindMetamask (purpose bind). Throttled per IP (type3).',
  params: z.object({
    address: ZWalletAddressSchema,
    chainId: ZChainIdSchema,
    purpose: ZChallengePurposeSchema.default('login'),
  }),
  result: z.object({ message: z.string(), expiresAt: z.number().int() }),
  auth: 'none',
  limitType: 'type3',
});

export const hubMetamaskRegister = defineMethod({
  name: 'hub_metamaskRegister',
  summary:
    'Signs in with a signed SIWE message, creating an account (uninitialised, no e-mail, no password) when the wallet is new. The nonce is used once; domain, chain, address and expiry are checked; smart-contract wallets are verified through EIP-1271. Throttled (type1).',
  params: z.object({
    message: ZSiweMessageSchema,
    signature: ZSignatureSchema,
    language: ZLanguageSchema.optional(),
  }),
  result: ZSignInResultSchema.extend({ created: z.boolean() }),
  auth: 'none',
  limitType: 'type1',
});

export const hubBindMetamask = defineMethod({
  name: 'hub_bindMetamask',
  summary:
    'Binds the wallet that signed a SIWE message (purpose bind) to the signed-in user; a wallet bound to someone else is refused (10212). Needs a sign-in within the last 15 minutes (10225), checked before the nonce is spent.',
  params: z.object({ message: ZSiweMessageSchema, signature: ZSignatureSchema }),
  result: z.object({ address: z.string() }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
});

export const hubUnbindMetamask = defineMethod({
  name: 'hub_unbindMetamask',
  summary: 'Removes the bound wallet, unless it is the only way left to sign in (10214).',
  params: z.object({}),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
});

// ── Third-party sign-in (OAuth 2 / OpenID Connect) ───────────────────────────────────────────────────────────

export const hubGetOauthLoginUrl = defineMethod({
  name: 'hub_getOauthLoginUrl',
  summary:
    'The provider’s authorization URL for signing in, with PKCE (S256) and a one-use state valid 10 minutes; the provider returns to /auth/callback. Throttled per IP (type3).',
  params: z.object({ provider: ZOauthProviderIdSchema }),
  result: z.object({ url: z.string(), state: z.string() }),
  auth: 'none',
  limitType: 'type3',
});

export const hubGetOauthBindUrl = defineMethod({
  name: 'hub_getOauthBindUrl',
  summary:
    'The provider’s authorization URL for binding it to the signed-in user (state tied to this user); the provider returns to /bind/callback. Needs a sign-in within the last 15 minutes (10225), as hub_bindOauth does.',
  params: z.object({ provider: ZOauthProviderIdSchema }),
  result: z.object({ url: z.string(), state: z.string() }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
});

export const hubCheckOauthCode = defineMethod({
  name: 'hub_checkOauthCode',
  summary:
    'Finishes a third-party sign-in at /auth/callback: checks the state, redeems the code with its PKCE verifier, and signs in the user the identity is bound to; an unknown identity gets a registration ticket for hub_oauthRegister instead. Throttled per IP (type3).',
  params: z.object({
    provider: ZOauthProviderIdSchema,
    code: ZOauthCodeSchema,
    state: ZOpaqueTokenSchema,
  }),
  result: z.object({
    signIn: ZSignInResultSchema.nullable(),
    registration: ZOauthRegistrationSchema.nullable(),
  }),
  auth: 'none',
  limitType: 'type3',
  hideError: true,
});

export const hubOauthRegister = defineMethod({
  name: 'hub_oauthRegister',
  summary:
    'Creates an account (uninitialised, no password) for the identity of a registration ticket from hub_checkOauthCode, and signs in. Throttled (type3).',
  params: z.object({ ticket: ZOpaqueTokenSchema, language: ZLanguageSchema.optional() }),
  result: ZSignInResultSchema.extend({ created: z.literal(true) }),
  auth: 'none',
  limitType: 'type3',
});

export const hubBindOauth = defineMethod({
  name: 'hub_bindOauth',
  summary:
    'Finishes binding at /bind/callback: the state must be one this user asked for; an identity bound to someone else is refused (10212). Needs a sign-in within the last 15 minutes at this call too (10225), checked before the state is spent.',
  params: z.object({
    provider: ZOauthProviderIdSchema,
    code: ZOauthCodeSchema,
    state: ZOpaqueTokenSchema,
  }),
  result: z.object({ provider: z.string(), email: z.string().nullable() }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
});

export const hubUnbindOauth = defineMethod({
  name: 'hub_unbindOauth',
  summary: 'Removes a bound provider, unless it is the only way left to sign in (10214).',
  params: z.object({ provider: ZOauthProviderIdSchema }),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
});

// ── E-mail and password for accounts created without them ────────────────────────────────────────────────────

export const hubNoPassword = defineMethod({
  name: 'hub_noPassword',
  summary: 'Whether the signed-in user has no password yet, and their e-mail address if any.',
  params: z.object({}),
  result: z.object({ isNoPassword: z.boolean(), email: z.string().nullable() }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
  hideError: true,
  readOnly: true,
});

export const hubPreBindEmail = defineMethod({
  name: 'hub_preBindEmail',
  summary:
    'Whether an address can be bound to the signed-in user (not taken by another user). Throttled (type3).',
  params: z.object({ email: ZEmailSchema }),
  result: z.object({ available: z.boolean() }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
  limitType: 'type3',
  hideError: true,
  readOnly: true,
});

export const hubSendBindConfirmMail = defineMethod({
  name: 'hub_sendBindConfirmMail',
  summary:
    'Mails a six-digit code (valid 15 minutes, 5 tries) to the address the signed-in user wants to bind. A user without a password must have signed in within the last 15 minutes (10225). Throttled per user and address (type2).',
  params: z.object({ email: ZEmailSchema }),
  result: z.object({ sent: z.literal(true), expiresAt: z.number().int() }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
  limitType: 'type2',
});

export const hubBindEmail = defineMethod({
  name: 'hub_bindEmail',
  summary:
    'Binds a confirmed address with the mailed code, and sets the password when the account has none (digests, SPEC §5); setting that first password needs a sign-in within the last 15 minutes (10225). Throttled (type3).',
  params: ZBindEmailParamsSchema,
  result: z.object({ email: z.string() }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
  limitType: 'type3',
});

// ── Two-factor sign-in (TOTP, RFC 6238) ───────────────────────────────────────────────────────────────────────

export const hubGetTwoFactorStatus = defineMethod({
  name: 'hub_getTwoFactorStatus',
  summary: 'Whether two-factor sign-in is on, since when, and how many backup codes are left.',
  params: z.object({}),
  result: z.object({
    enabled: z.boolean(),
    enabledAt: z.number().int().nullable(),
    backupCodesLeft: z.number().int().nonnegative(),
  }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
  readOnly: true,
});

export const hubStartTwoFactorSetup = defineMethod({
  name: 'hub_startTwoFactorSetup',
  summary:
    'Offers a new TOTP secret (base32 and otpauth:// URI for a QR code); nothing changes until hub_enableTwoFactor confirms a code from it. A user without a password must have signed in within the last 15 minutes (10225).',
  params: z.object({}),
  result: z.object({ secret: z.string(), otpauthUrl: z.string() }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
});

export const hubEnableTwoFactor = defineMethod({
  name: 'hub_enableTwoFactor',
  summary:
    'Turns two-factor sign-in on with a code from the offered secret, given the current password (its md5 digest, as at sign-in; 10224 without it, 10207 when wrong) or, for a user without one, a sign-in within the last 15 minutes (10225). Every other session of the user ends (endedSessions says how many). Answers 10 one-time backup codes, shown only now. Throttled (type1).',
  params: z.object({
    code: z.string().regex(/^\d{6}$/, 'expected six digits'),
    password: ZPasswordDigestSchema.optional(),
  }),
  result: z.object({
    backupCodes: z.array(z.string()),
    endedSessions: z.number().int().nonnegative(),
  }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
  limitType: 'type1',
});

export const hubDisableTwoFactor = defineMethod({
  name: 'hub_disableTwoFactor',
  summary: 'Turns two-factor sign-in off with a current code or a backup code. Throttled (type1).',
  params: z.object({ code: ZTwoFactorCodeSchema }),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
  limitType: 'type1',
});

export const hubRegenerateBackupCodes = defineMethod({
  name: 'hub_regenerateBackupCodes',
  summary: 'Replaces every backup code with 10 new ones, given a current code. Throttled (type1).',
  params: z.object({ code: ZTwoFactorCodeSchema }),
  result: z.object({ backupCodes: z.array(z.string()) }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
  limitType: 'type1',
});

export const hubVerifyTwoFactorLogin = defineMethod({
  name: 'hub_verifyTwoFactorLogin',
  summary:
    'Finishes a sign-in that answered twoFactorRequired: a TOTP or backup code turns the pending token into a full 30-day session (a new token; the pending one ends). Five wrong codes end the pending session. Throttled (type1).',
  params: z.object({ code: ZTwoFactorCodeSchema }),
  result: ZSignInResultSchema,
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
  allowsTwoFactorPending: true,
  limitType: 'type1',
});

// ── Sessions ──────────────────────────────────────────────────────────────────────────────────────────────────

export const hubGetSessions = defineMethod({
  name: 'hub_getSessions',
  summary: 'The signed-in user’s live sessions, newest first, the current one marked.',
  params: z.object({}),
  result: z.object({ list: z.array(ZSessionSchema) }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
  readOnly: true,
});

export const hubRevokeSession = defineMethod({
  name: 'hub_revokeSession',
  summary: 'Ends one of the user’s sessions (its socket closes at once); 50404 for any other id.',
  params: z.object({ sessionId: z.uuid() }),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
});

export const hubRevokeOtherSessions = defineMethod({
  name: 'hub_revokeOtherSessions',
  summary: 'Ends every session of the user but this one.',
  params: z.object({}),
  result: z.object({ revoked: z.number().int().nonnegative() }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
});

export const SIGN_IN_METHODS = [
  hubGetMetamaskNonce,
  hubMetamaskRegister,
  hubBindMetamask,
  hubUnbindMetamask,
  hubGetOauthLoginUrl,
  hubGetOauthBindUrl,
  hubCheckOauthCode,
  hubOauthRegister,
  hubBindOauth,
  hubUnbindOauth,
  hubNoPassword,
  hubPreBindEmail,
  hubSendBindConfirmMail,
  hubBindEmail,
  hubGetTwoFactorStatus,
  hubStartTwoFactorSetup,
  hubEnableTwoFactor,
  hubDisableTwoFactor,
  hubRegenerateBackupCodes,
  hubVerifyTwoFactorLogin,
  hubGetSessions,
  hubRevokeSession,
  hubRevokeOtherSessions,
] as const;
