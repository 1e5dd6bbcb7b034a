/**
 * CSV exports of an account's deposits and purchases (docs/decisions/exports.md). One row per requested export,
 * holding its status and, once done, the CSV itself (bounded by a row cap), so every console instance can serve
 * it. At most one queued or running export per account, kind and filter (partial unique index). Download tokens
 * are stored as SHA-256 hashes, each expiring; the raw token only ever travels in a download URL.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { users } from './users';

export type TExportKind = 'deposit' | 'purchase';
export type TExportStatus = 'queued' | 'running' | 'done' | 'failed';

export const exportJobs = pgTable(
  'export_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** who asked: the file_download notice goes to this user */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<TExportKind>().notNull(),
    /** the list filters, as validated by the contract */
    filter: jsonb('filter').$type<Record<string, unknown>>().notNull(),
    /** canonical JSON of `filter`: what "the same export" means */
    filterKey: text('filter_key').notNull(),
    status: text('status').$type<TExportStatus>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    fileName: text('file_name'),
    rows: integer('rows'),
    /** more rows matched than the cap; the file holds the first ones */
    truncated: boolean('truncated').notNull().default(false),
    /** the CSV (UTF-8 with BOM), set when done */
    csv: text('csv'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('export_jobs_one_open_per_filter')
      .on(t.accountId, t.kind, t.filterKey)
      .where(sql`${t.status} in ('queued', 'running')`),
    index('export_jobs_account_created').on(t.accountId, t.createdAt),
    index('export_jobs_status').on(t.status),
  ],
);

export type TExportJobRow = typeof exportJobs.$inferSelect;

export const exportDownloadTokens = pgTable(
  'export_download_tokens',
  {
    /** hex SHA-256 of the raw token */
    tokenHash: text('token_hash').primaryKey(),
    exportId: uuid('export_id')
      .notNull()
      .references(() => exportJobs.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('export_download_tokens_export').on(t.exportId)],
);
