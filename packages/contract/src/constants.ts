/** Business constants shared by the web app and the server (SPEC §9). */

/**
 * Passwords travel as md5(PASSWORD_HASH_PREFIX + password), never in clear (SPEC §5).
 * The server stores argon2id over that digest.
 */
export const PASSWORD_HASH_PREFIX = 'rpc-console:v1:';

/** Length bounds of a plain password, checked in the browser before hashing (the server only sees the digest). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 64;

export const LANGUAGES = ['en', 'zh'] as const;
export type TLanguage = (typeof LANGUAGES)[number];
/** BCP 47 tags for <html lang> and Intl (SPEC §9: en-US, zh-CN). */
export const LANGUAGE_TAGS: Record<TLanguage, string> = { en: 'en-US', zh: 'zh-CN' };

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const CONFIRM_CODE_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_CODE_TTL_MS = 60 * 60 * 1000;

export const HTTP_TIMEOUT_MS = 60_000;
export const POPUP_DURATION_S = 5;
export const NOTICE_TOAST_MS = 2000;
export const NOTICE_CUTOFF_MS = 1735784040000;
export const RELOAD_GUARD_MS = 10_000;
export const LIMIT_INFO_REFETCH_DELAYS_MS = [2000, 10_000] as const;
export const TEAM_LIST_PAGE = { page: 1, perPage: 1000 } as const;
export const UNREAD_NOTICES_PER_PAGE = 9999;

/** The console API's path and its team header (ARCHITECTURE.md "Console API contract"). */
export const API_PATH = '/api';
export const TEAM_ID_HEADER = 'x-team-id';

/** Largest console API request body, in bytes. */
export const API_BODY_LIMIT_BYTES = 64 * 1024;

export const NOTICE_TYPES = [
  'deposit',
  'expired',
  'low_balance',
  'low_ru',
  'auto_renew_success',
  'auto_renew_off',
  'ru_pkg_running_out',
  'register_gift',
  'monthly_gift',
  'activity_gift',
  'file_download',
  'init_by_and_auto_scaling',
  'init_only_by',
  'api_service_is_paused',
  'auto_scaling_failed',
  'free_auto_scaling_failed',
  'normal_success',
  'normal_warn',
  'normal_fail',
  'message_enterprise_package_send',
  'buy_package',
  'credit_package_sent',
  'team_remove_member',
  'team_approve_invite',
  'team_disband',
  'apikey_feature_update',
  'apikey_delete',
  'team_member_leave',
  'card_auto_scaling_failed',
  'free_card_auto_scaling_failed',
] as const;
export type TNoticeType = (typeof NOTICE_TYPES)[number];

export const USER_TYPES = ['user', 'team'] as const;
export type TUserType = (typeof USER_TYPES)[number];
