import { index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

export const oneTimeCodePurpose = pgEnum('one_time_code_purpose', [
  'email_confirm',
  'password_reset',
  'password_set',
]);
export type TOneTimeCodePurpose = (typeof oneTimeCodePurpose.enumValues)[number];

/** Codes mailed in links (confirm, reset, set password). Stored as SHA-256; single use; expiring. */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: oneTimeCodePurpose('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('one_time_codes_code_hash_unique').on(t.codeHash),
    index('one_time_codes_user_idx').on(t.userId, t.purpose),
  ],
);

export type TOneTimeCodeRow = typeof oneTimeCodes.$inferSelect;
