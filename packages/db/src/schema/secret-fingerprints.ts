import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One fingerprint per server secret (HMAC of a fixed label under a key derived from the secret; reveals nothing of
 * it). The first process to start stores it; a process with another secret refuses to start instead of writing
 * data the others cannot read.
 */
export const secretFingerprints = pgTable('secret_fingerprints', {
  /** 'api_key_secret' */
  purpose: text('purpose').primaryKey(),
  fingerprint: text('fingerprint').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
