import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  pgEnum,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

export const userLanguage = pgEnum('user_language', ['en', 'zh']);
/** SPEC §3 userType: 'team' users registered with hub_registerTeam and enter their team directly (SPEC §6). */
export const userType = pgEnum('user_type', ['user', 'team']);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lowercased; null for users who will sign in with a wallet or a third party only. */
    email: text('email'),
    /** argon2id over the client's md5 digest (SPEC §5); null when the user has no password yet. */
    passwordHash: text('password_hash'),
    nickname: text('nickname').notNull().default(''),
    avatar: text('avatar'),
    language: userLanguage('language').notNull().default('en'),
    userType: userType('user_type').notNull().default('user'),
    /** hub_getUserCode: given out on first ask, so admins can invite without knowing the e-mail address. */
    userCode: text('user_code'),
    mailConfirmedAt: timestamp('mail_confirmed_at', { withTimezone: true, mode: 'date' }),
    initialized: boolean('initialized').notNull().default(false),
    acceptTerm: boolean('accept_term').notNull().default(false),
    rechargeTips: smallint('recharge_tips').notNull().default(1),
    /** Notice types also sent by e-mail; null means the server's defaults (DEFAULT_MAILED_NOTICE_TYPES). */
    noticeMailTypes: text('notice_mail_types').array(),
    /** TOTP secret (RFC 6238), sealed with the API key cipher; set while two-factor sign-in is on */
    totpSecretSealed: text('totp_secret_sealed'),
    /** a secret offered by hub_startTwoFactorSetup, not yet confirmed with a code */
    totpPendingSealed: text('totp_pending_sealed'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true, mode: 'date' }),
    /** the last TOTP time step accepted: a code is never accepted twice */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    personalAccountId: uuid('personal_account_id')
      .notNull()
      .references(() => accounts.id),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_personal_account_unique').on(t.personalAccountId),
    uniqueIndex('users_user_code_unique').on(t.userCode),
    // The lowercase rule lives in the database too, so no code path can store a mixed-case duplicate.
    check('users_email_lowercase', sql`${t.email} = lower(${t.email})`),
    check('users_recharge_tips_bit', sql`${t.rechargeTips} in (0, 1)`),
  ],
);

export type TUserRow = typeof users.$inferSelect;
