/**
 * Profile extras and what operators run beside the console (issue 16): avatars (the re-encoded image, never the
 * uploaded bytes), support tickets, operator banners and page/action events.
 */
import {
  bigserial,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { apiKeys } from './api-keys';
import { users } from './users';

/** Binary data: Buffer in, Buffer out (node-postgres answers a Buffer, PGlite a Uint8Array). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** One avatar per user: the image as the server re-encoded it (WebP), served at /avatar/{userId}. */
export const userAvatars = pgTable('user_avatars', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  image: bytea('image').notNull(),
  contentType: text('content_type').notNull(),
  /** hex SHA-256 of `image`: the ETag, and the version in users.avatar's URL */
  sha256: text('sha256').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
export type TUserAvatarRow = typeof userAvatars.$inferSelect;

export type TTicketStatus = 'open' | 'answered' | 'closed';

/** A support ticket (SPEC §7: its own POST path), mailed to the operator address and listed for its account. */
export const supportTickets = pgTable(
  'support_tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** TKT-<6 digits or more>, per server */
    number: integer('number').generatedAlwaysAsIdentity().notNull(),
    category: text('category').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    attachmentName: text('attachment_name'),
    attachmentType: text('attachment_type'),
    attachment: bytea('attachment'),
    status: text('status').$type<TTicketStatus>().notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('support_tickets_account_created_idx').on(t.accountId, t.createdAt)],
);
export type TSupportTicketRow = typeof supportTickets.$inferSelect;

/** An operator's announcement, shown between its start and end to users of its language ('all': everyone). */
export const banners = pgTable(
  'banners',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    language: text('language').$type<'en' | 'zh' | 'all'>().notNull(),
    level: text('level').$type<'info' | 'warning'>().notNull().default('info'),
    text: text('text').notNull(),
    linkUrl: text('link_url'),
    startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('banners_window_idx').on(t.startsAt, t.endsAt)],
);
export type TBannerRow = typeof banners.$inferSelect;

/** Page and action events (hub_saveEventTracking): no personal data beyond the account id. */
export const trackingEvents = pgTable(
  'tracking_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    page: text('page').notNull(),
    action: text('action').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
  },
  (t) => [index('tracking_events_at_idx').on(t.at)],
);
export type TTrackingEventRow = typeof trackingEvents.$inferSelect;
