/** API keys: owned by an account; the key is a public, opaque, unguessable identifier used in endpoint URLs. */
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
    key: text('key').notNull(),
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
    uniqueIndex('api_keys_key_unique').on(t.key),
    index('api_keys_account_live_idx')
      .on(t.accountId, t.createdAt)
      .where(sql`${t.deletedAt} is null`),
    check('api_keys_mev_valid', sql`${t.mev} in ('', 'auto', 'globalcast')`),
    check(
      'api_keys_bundler_valid',
      sql`${t.bundler} in ('default', 'stackup', 'candide', 'pimlico', 'etherspot')`,
    ),
  ],
);

export type TApiKeyRow = typeof apiKeys.$inferSelect;
