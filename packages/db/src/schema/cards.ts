/**
 * Card payments through Stripe (docs/decisions/card-payments.md): the Stripe customer of each account, card orders
 * (one payment each: a package bought by card or a wallet top-up) and the webhook events already applied.
 * Cards themselves live in Stripe (PaymentMethods of the customer); nothing about a card number is stored here.
 */
import {
  bigint,
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
import { sql } from 'drizzle-orm';
import { accounts } from './accounts';
import { users } from './users';

export const stripeCustomers = pgTable('stripe_customers', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  customerId: text('customer_id').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type TCardOrderKind = 'package' | 'top_up' | 'renewal' | 'dn_buy' | 'dn_renew';
/** What a dedicated node card order pays for: the terms of a purchase (dn_buy) or the months of a renewal (dn_renew). */
export type TCardOrderDnTerms = {
  chain: string;
  nodeType: 'full' | 'archive';
  region: string;
  months: number;
};
export type TCardOrderStatusValue =
  'pending' | 'requires_action' | 'succeeded' | 'failed' | 'credited';

export const cardOrders = pgTable(
  'card_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** who asked (null: the system, e.g. a renewal) */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** unique per account: buy:<key>, topup:<key>, renew:<package id> */
    requestKey: text('request_key').notNull(),
    kind: text('kind').$type<TCardOrderKind>().notNull(),
    skuId: text('sku_id'),
    skuName: jsonb('sku_name').$type<{ en: string; zh: string }>(),
    /** the package being renewed (renewal orders) */
    renewsPackageId: uuid('renews_package_id'),
    useDiscount: boolean('use_discount').notNull().default(true),
    autoRenew: boolean('auto_renew').notNull().default(false),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('USD'),
    status: text('status').$type<TCardOrderStatusValue>().notNull().default('pending'),
    paymentIntentId: text('payment_intent_id').unique(),
    paymentMethodId: text('payment_method_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    purchaseId: uuid('purchase_id'),
    /** dn_buy / dn_renew: the node's terms (a renewal: its chain, type, region and the months added) */
    dnTerms: jsonb('dn_terms').$type<TCardOrderDnTerms>(),
    /** dn_renew: the node renewed from the start · dn_buy: the node bought, once paid */
    nodeId: uuid('node_id'),
    /** dn_buy / dn_renew: the dedicated node order the payment made, once paid */
    dnOrderId: uuid('dn_order_id'),
    failureCode: text('failure_code'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
    /** when the card order sweep last asked Stripe about this open order (null: never) */
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }),
    /** how many times the sweep has asked: spaces its next look further apart */
    checks: integer('checks').notNull().default(0),
  },
  (t) => [
    uniqueIndex('card_orders_request_key_unique').on(t.accountId, t.requestKey),
    index('card_orders_account_created_idx').on(t.accountId, t.createdAt),
    // The sweep's work list: open orders, oldest first (few at any time, so the index stays small).
    index('card_orders_open_created_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('pending', 'requires_action')`),
  ],
);
export type TCardOrderRow = typeof cardOrders.$inferSelect;

/** Stripe webhook events by id: an event seen again (Stripe retries, a replay) is answered and not re-applied. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** what applying it did: applied, ignored, or the reason it was skipped */
  outcome: text('outcome').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
