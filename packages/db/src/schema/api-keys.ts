/**
 * API keys: owned by an account; the key is an opaque, unguessable credential used in endpoint URLs. At rest it is
 * AES-256-GCM ciphertext (the console shows it again) plus an HMAC-SHA-256 lookup hash (unique); never plain text
 * (docs/decisions/api-key-storage.md).
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

export type TApiKeyAllowlists = {
  origins: string[];
  ips: string[];
  contracts: string[];
  methods: string[];
};

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** HMAC-SHA-256 of the key under a key derived from API_KEY_SECRET, hex: uniqueness and lookup by key. */
    keyHash: text('key_hash'),
    /** 'v1:' + base64url(iv ‖ AES-256-GCM ciphertext ‖ tag), bound to this row's id. */
    keyCiphertext: text('key_ciphertext'),
    /**
     * Plain text of keys made before migration 0005 (then `key`). The console empties it at every start
     * (sealLegacyApiKeys) before serving; a later migration drops it once every deployment has started once.
     */
    legacyKey: text('legacy_key'),
    paused: boolean('paused').notNull().default(false),
    archiveMode: boolean('archive_mode').notNull().default(false),
    /** '' | 'auto' | 'globalcast' */
    mev: text('mev').notNull().default(''),
    /** default | stackup | candide | pimlico | etherspot */
    bundler: text('bundler').notNull().default('default'),
    allowlists: jsonb('allowlists')
      .$type<TApiKeyAllowlists>()
      .notNull()
      .default({ origins: [], ips: [], contracts: [], methods: [] }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Soft delete: a deleted key is never listed, never served and never comes back. */
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_unique').on(t.keyHash),
    index('api_keys_account_live_idx')
      .on(t.accountId, t.createdAt)
      .where(sql`${t.deletedAt} is null`),
    check('api_keys_mev_valid', sql`${t.mev} in ('', 'auto', 'globalcast')`),
    check(
      'api_keys_bundler_valid',
      sql`${t.bundler} in ('default', 'stackup', 'candide', 'pimlico', 'etherspot')`,
    ),
    // Sealed (hash and ciphertext together) or legacy plain text awaiting its seal at start: exactly one.
    check(
      'api_keys_key_sealed_or_legacy',
      sql`(${t.keyHash} is null) = (${t.keyCiphertext} is null) and (${t.keyHash} is null) <> (${t.legacyKey} is null)`,
    ),
  ],
);

export type TApiKeyRow = typeof apiKeys.$inferSelect;
