import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/** Console sessions. Only the SHA-256 of the bearer token is stored, so a database leak yields no usable tokens. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /**
     * The password (or wallet, or provider) was right but two-factor sign-in is on: the token only reaches
     * hub_verifyTwoFactorLogin until a code is given, which replaces it with a full session.
     */
    twoFactorPending: boolean('two_factor_pending').notNull().default(false),
    /** wrong codes given to a pending session; it is revoked at the limit */
    twoFactorAttempts: integer('two_factor_attempts').notNull().default(0),
    /** how the session was opened: password, wallet, or an OAuth provider id */
    method: text('method').notNull().default('password'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_unique').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
  ],
);

export type TSessionRow = typeof sessions.$inferSelect;
