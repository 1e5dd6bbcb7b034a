/** Field schemas reused by the account methods and by the web app's forms. */
import { z } from 'zod';
import { LANGUAGES, USER_TYPES } from '../constants';
import { TEAM_ROLES } from '../teams/permissions';

/** Rejects C0/C1 control characters, bidi overrides and zero-width characters in free text. */
const SAFE_TEXT = /^[^\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]*$/;

export const ZEmailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email());

/** md5(PASSWORD_HASH_PREFIX + password) as 32 lowercase hex characters (SPEC §5). */
export const ZPasswordDigestSchema = z
  .string()
  .regex(/^[0-9a-f]{32}$/, 'expected the md5 digest of the password');

/** One-time codes from e-mail links: opaque URL-safe tokens. */
export const ZOneTimeCodeSchema = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, 'malformed code');

export const ZNicknameSchema = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .regex(SAFE_TEXT, 'contains control characters');

export const ZLanguageSchema = z.enum(LANGUAGES);
export const ZUserTypeSchema = z.enum(USER_TYPES);

export const ZSuccessSchema = z.object({ success: z.literal(true) });

export const ZCodeStatusSchema = z.object({
  status: z.enum(['valid', 'used', 'expired', 'invalid']),
  email: z.string().nullable(),
});

export const ZTeamSummarySchema = z.object({
  teamId: z.string(),
  teamName: z.string(),
  role: z.enum(TEAM_ROLES),
});

export const ZOauthBindingSchema = z.object({
  provider: z.string(),
  email: z.string().nullable(),
});

/** The user-info fields of SPEC §3 that exist so far. */
export const ZUserProfileSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  email: z.string().nullable(),
  nickname: z.string(),
  avatar: z.string().nullable(),
  totalApiKeys: z.number().int().nonnegative(),
  oauth: z.array(ZOauthBindingSchema),
  /** 1 when the e-mail address is confirmed, 0 otherwise */
  mailStatus: z.union([z.literal(0), z.literal(1)]),
  initialize: z.boolean(),
  rechargeTips: z.union([z.literal(0), z.literal(1)]),
  isNoPassword: z.boolean(),
  teamList: z.array(ZTeamSummarySchema),
  hasTeam: z.boolean(),
  hasInvite: z.boolean(),
  userType: ZUserTypeSchema,
  acceptTerm: z.boolean(),
  language: ZLanguageSchema,
  createdAt: z.number().int(),
});
export type TUserProfile = z.infer<typeof ZUserProfileSchema>;

// --- Avatars (SPEC §7 "POST /upload/avatar, multipart form field file"; docs/decisions/avatars.md) ---

/** Where the signed-in user uploads an avatar: multipart/form-data, one file in the field AVATAR_FIELD. */
export const AVATAR_UPLOAD_PATH = '/upload/avatar';
export const AVATAR_FIELD = 'file';
/** The stored avatar of a user, served at `${AVATAR_PATH}/{userId}?v={version}` (the profile's `avatar`). */
export const AVATAR_PATH = '/avatar';
/** Largest file accepted (the client checks too, before sending). */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** Most pixels an upload may declare (6000 × 6000): larger is refused from the header, before decoding. */
export const AVATAR_MAX_PIXELS = 36_000_000;
/** Edge of the square WebP every avatar is re-encoded to. */
export const AVATAR_SIZE_PX = 256;
/** The types accepted, told apart by their bytes; the browser's file picker offers these. */
export const AVATAR_ACCEPTED_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** What POST /upload/avatar answers in `result`: the profile's new `avatar` URL. */
export const ZUploadAvatarResultSchema = z.object({ avatar: z.string() });
export type TUploadAvatarResult = z.infer<typeof ZUploadAvatarResultSchema>;
