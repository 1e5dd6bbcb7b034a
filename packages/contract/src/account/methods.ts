/** Account methods (SPEC §4, §5, §7 Account). */
import { z } from 'zod';
import { defineMethod } from '../define-method';
import {
  ZCodeStatusSchema,
  ZEmailSchema,
  ZLanguageSchema,
  ZNicknameSchema,
  ZOneTimeCodeSchema,
  ZPasswordDigestSchema,
  ZSuccessSchema,
  ZUserProfileSchema,
} from './schemas';
import { ZSignInResultSchema, ZTwoFactorCodeSchema } from '../sign-in/schemas';

export const ZRegisterParamsSchema = z.object({
  email: ZEmailSchema,
  password: ZPasswordDigestSchema,
  confirmPassword: ZPasswordDigestSchema,
  language: ZLanguageSchema.optional(),
});

export const hubRegister = defineMethod({
  name: 'hub_register',
  summary:
    'Creates a user with a personal account and mails a confirmation link. Throttled per e-mail and IP (limitType type3).',
  params: ZRegisterParamsSchema,
  result: z.object({ email: z.string(), confirmMailSent: z.boolean() }),
  auth: 'none',
  limitType: 'type3',
});

export const hubSendRegisterConfirmMail = defineMethod({
  name: 'hub_sendRegisterConfirmMail',
  summary:
    'Mails a new confirmation link if the address belongs to an unconfirmed user. Always answers sent, so it reveals nothing. Throttled (type2).',
  params: z.object({ email: ZEmailSchema }),
  result: z.object({ sent: z.literal(true) }),
  auth: 'none',
  limitType: 'type2',
});

export const hubEmailExists = defineMethod({
  name: 'hub_emailExists',
  summary: 'Whether an e-mail address is registered. Throttled per IP (type3).',
  params: z.object({ email: ZEmailSchema }),
  result: z.object({ exists: z.boolean() }),
  auth: 'none',
  limitType: 'type3',
});

export const hubEmailConfirm = defineMethod({
  name: 'hub_emailConfirm',
  summary:
    'Confirms an e-mail address with the single-use code from the confirmation mail. Throttled per IP with the other code methods (type3).',
  params: z.object({ code: ZOneTimeCodeSchema }),
  result: z.object({ email: z.string(), confirmed: z.literal(true) }),
  auth: 'none',
  limitType: 'type3',
  hideError: true,
});

export const hubCheckEmailConfirmCodeStatus = defineMethod({
  name: 'hub_checkEmailConfirmCodeStatus',
  summary:
    'Tells whether a confirmation code is valid, used, expired or unknown, without using it. Throttled per IP with the other code methods (type3).',
  params: z.object({ code: ZOneTimeCodeSchema }),
  result: ZCodeStatusSchema,
  auth: 'none',
  limitType: 'type3',
  hideError: true,
});

export const ZLoginParamsSchema = z.object({
  email: ZEmailSchema,
  password: ZPasswordDigestSchema,
});

export const hubLogin = defineMethod({
  name: 'hub_login',
  summary:
    'Signs in with e-mail and password digest; returns a session token valid for 30 days (or, with two-factor sign-in on, a pending token for hub_verifyTwoFactorLogin). Throttled per IP, per e-mail and IP, and by a looser per-e-mail cap that spares places the address signed in from (type1).',
  params: ZLoginParamsSchema,
  result: ZSignInResultSchema,
  auth: 'none',
  limitType: 'type1',
});

export const hubLogout = defineMethod({
  name: 'hub_logout',
  summary:
    'Ends the current session; its token stops working at once. X-Team-Id is ignored, so a stale team id cannot block it.',
  params: z.object({}),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
  allowsTwoFactorPending: true,
  hideError: true,
  keepDuplicates: true,
});

export const hubGetUserProfile = defineMethod({
  name: 'hub_getUserProfile',
  summary: 'The signed-in user’s info (SPEC §3 user info).',
  params: z.object({}),
  result: ZUserProfileSchema,
  auth: 'user',
  permission: 'self',
});

export const hubSendResetPasswordMail = defineMethod({
  name: 'hub_sendResetPasswordMail',
  summary:
    'Mails a password reset link (purpose reset) or a set-password link (purpose set). Always answers sent. Throttled (type2).',
  params: z.object({
    email: ZEmailSchema,
    purpose: z.enum(['reset', 'set']).default('reset'),
  }),
  result: z.object({ sent: z.literal(true) }),
  auth: 'none',
  limitType: 'type2',
});

export const hubPasswordResetCodeStatus = defineMethod({
  name: 'hub_passwordResetCodeStatus',
  summary:
    'Tells whether a reset or set-password code is valid, without using it. Throttled per IP with the other code methods (type3).',
  params: z.object({ code: ZOneTimeCodeSchema }),
  result: ZCodeStatusSchema,
  auth: 'none',
  limitType: 'type3',
  hideError: true,
});

export const ZPasswordResetParamsSchema = z.object({
  code: ZOneTimeCodeSchema,
  password: ZPasswordDigestSchema,
  confirmPassword: ZPasswordDigestSchema,
});

export const hubPasswordReset = defineMethod({
  name: 'hub_passwordReset',
  summary:
    'Sets a new password with a single-use reset code; every session of the user ends. Also confirms the e-mail and lifts the per-address sign-in cap. Throttled per IP with the other code methods (type3).',
  params: ZPasswordResetParamsSchema,
  result: ZSuccessSchema,
  auth: 'none',
  limitType: 'type3',
});

export const ZChangePasswordParamsSchema = z.object({
  oldPassword: ZPasswordDigestSchema,
  password: ZPasswordDigestSchema,
  confirmPassword: ZPasswordDigestSchema,
  /** required once two-factor sign-in is on */
  twoFactorCode: ZTwoFactorCodeSchema.optional(),
});

export const hubChangePassword = defineMethod({
  name: 'hub_changePassword',
  summary:
    'Changes the password of a signed-in user who knows the current one; other sessions end. With two-factor sign-in on, a current code is needed too (10219). Throttled (type1).',
  params: ZChangePasswordParamsSchema,
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'self',
  limitType: 'type1',
});

export const hubSetUserNickname = defineMethod({
  name: 'hub_setUserNickname',
  summary: 'Sets the nickname (1–32 characters, no control characters).',
  params: z.object({ nickname: ZNicknameSchema }),
  result: z.object({ nickname: z.string() }),
  auth: 'user',
  permission: 'self',
});

export const hubChangeUserLang = defineMethod({
  name: 'hub_changeUserLang',
  summary: 'Sets the language of the user’s mails and notices.',
  params: z.object({ lang: ZLanguageSchema }),
  result: z.object({ language: ZLanguageSchema }),
  auth: 'user',
  permission: 'self',
});

export const hubSetUserAcceptTerm = defineMethod({
  name: 'hub_setUserAcceptTerm',
  summary: 'Records that the user accepted the terms; this also initialises the account.',
  params: z.object({}),
  result: z.object({ acceptTerm: z.literal(true), initialize: z.literal(true) }),
  auth: 'user',
  permission: 'self',
});

export const hubSetRechargeTips = defineMethod({
  name: 'hub_setRechargeTips',
  summary: 'Turns the recharge tips on (1) or off (0).',
  params: z.object({ rechargeTips: z.union([z.literal(0), z.literal(1)]) }),
  result: z.object({ rechargeTips: z.union([z.literal(0), z.literal(1)]) }),
  auth: 'user',
  permission: 'self',
});

export const hubRemoveAvatar = defineMethod({
  name: 'hub_removeAvatar',
  summary:
    'Removes the signed-in user’s avatar (POST /upload/avatar sets it): the stored image is deleted and the profile’s avatar becomes null. Answers success when there was none.',
  params: z.object({}),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'self',
});

export const hubGetConfig = defineMethod({
  name: 'hub_getConfig',
  summary: 'Public configuration the web app needs before sign-in.',
  params: z.object({}),
  result: z.object({
    version: z.string(),
    gatewayHttpUrlTemplate: z.string(),
    gatewayWsUrlTemplate: z.string(),
    registrationOpen: z.boolean(),
    supportEmail: z.string(),
    /** Stripe's publishable key when card payments are configured, else null (cards shown as not configured) */
    stripePublishableKey: z.string().nullable(),
    /** third-party sign-in providers configured by the operator, in the order to show them */
    oauthProviders: z.array(z.object({ id: z.string(), name: z.string() })),
    /** the domain a SIWE message must name (this console's host) */
    siweDomain: z.string(),
  }),
  auth: 'none',
});
