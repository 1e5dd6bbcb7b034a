/**
 * Ways to sign in besides e-mail and password (docs/decisions/sign-in.md): identities bound to a user (a wallet
 * address, an OAuth / OpenID Connect subject), the one-use challenges that prove them, and two-factor backup codes.
 */
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A way to sign in that is not a password: provider 'wallet' with the lowercased address as subject, or an OAuth
 * provider id (config) with the provider's stable subject. One identity per provider per user; an identity belongs
 * to one user only.
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    /** the provider's e-mail address for the subject, shown in the profile; never used to sign in */
    email: text('email'),
    displayName: text('display_name'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_identities_subject_unique').on(t.provider, t.subject),
    uniqueIndex('user_identities_user_provider_unique').on(t.userId, t.provider),
  ],
);

export const authChallengeKind = pgEnum('auth_challenge_kind', [
  /** a SIWE nonce handed out by hub_getMetamaskNonce */
  'siwe',
  /** an OAuth state (with its sealed PKCE verifier) handed out with an authorization URL */
  'oauth',
  /** a verified provider identity waiting for hub_oauthRegister */
  'oauth_register',
  /** a code mailed by hub_sendBindConfirmMail */
  'email_bind',
]);
export type TAuthChallengeKind = (typeof authChallengeKind.enumValues)[number];

/**
 * One-use, expiring proofs. Only the SHA-256 of the secret is stored (nonce, state, ticket, mailed code); what the
 * server must read back (a PKCE verifier) is sealed in `payload` with the API key cipher.
 */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: authChallengeKind('kind').notNull(),
    /** 'login' or 'bind' */
    purpose: text('purpose').notNull(),
    secretHash: text('secret_hash').notNull(),
    /** the user a bind challenge belongs to; null for sign-in */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider'),
    payload: jsonb('payload').notNull().default({}),
    /** wrong answers so far (mailed codes): the challenge dies at the limit */
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('auth_challenges_secret_unique').on(t.kind, t.secretHash),
    index('auth_challenges_user_idx').on(t.userId, t.kind),
    index('auth_challenges_expiry_idx').on(t.expiresAt),
    check('auth_challenges_purpose', sql`${t.purpose} in ('login', 'bind')`),
  ],
);

export type TAuthChallengeRow = typeof authChallenges.$inferSelect;

/** Two-factor backup codes: shown once, stored as SHA-256, each good for one sign-in or confirmation. */
export const twoFactorBackupCodes = pgTable(
  'two_factor_backup_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('two_factor_backup_codes_unique').on(t.userId, t.codeHash)],
);
