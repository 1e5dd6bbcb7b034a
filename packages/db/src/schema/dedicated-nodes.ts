/**
 * Dedicated nodes (docs/decisions/dedicated-nodes.md): a node an account bought for a term, run by a driver (a local
 * Hardhat process, or a StatefulSet in Kubernetes), its orders (the purchase and each renewal, each paid once per request key)
 * and every status change with its time.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
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
import { accounts } from './accounts';
import { users } from './users';

/** SPEC §3: the five statuses of a dedicated node. */
export const dnStatus = pgEnum('dn_status', [
  'online',
  'stopped',
  'pending',
  'will_expired',
  'expired',
]);
export type TDnStatus = (typeof dnStatus.enumValues)[number];

export const dnNodeType = pgEnum('dn_node_type', ['full', 'archive']);
export type TDnNodeType = (typeof dnNodeType.enumValues)[number];

export const dnOrderKind = pgEnum('dn_order_kind', ['buy', 'renew']);
export type TDnOrderKind = (typeof dnOrderKind.enumValues)[number];

/** What a driver keeps to find its node again: a local process's port, a cluster's object names. */
export type TDnDriverRef = Record<string, string | number | boolean | null>;

export const dedicatedNodes = pgTable(
  'dedicated_nodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** chain id of the dedicated-node catalogue (config/dn-skus.json) */
    chain: text('chain').notNull(),
    nodeType: dnNodeType('node_type').notNull(),
    region: text('region').notNull(),
    status: dnStatus('status').notNull().default('pending'),
    /** months paid for so far: the purchase and every renewal */
    months: integer('months').notNull(),
    /** what the purchase paid (renewals: dedicated_node_orders) */
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    /** the catalogue version the node was bought under */
    skuVersion: text('sku_version').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** the last time the node came online */
    onlineAt: timestamp('online_at', { withTimezone: true, mode: 'date' }),
    /** when its process was stopped (expiry, or an operator's stop); null while it may run */
    stoppedAt: timestamp('stopped_at', { withTimezone: true, mode: 'date' }),
    /** when the grace period ended and its data was deleted: from then on it cannot be renewed */
    dataDeletedAt: timestamp('data_deleted_at', { withTimezone: true, mode: 'date' }),
    /** which driver runs it: 'local' (a Hardhat process of the console) or 'kubernetes' (a StatefulSet in a cluster) */
    driver: text('driver').notNull(),
    /** the driver's handle on what it started; null before provisioning and after the data is deleted */
    driverRef: jsonb('driver_ref').$type<TDnDriverRef>(),
    /**
     * Bumped by whoever (re)provisions the node, with a compare-and-set: two sweeps at once never start two
     * processes for one node, and a stale sweep never overwrites a newer ref.
     */
    driverGeneration: integer('driver_generation').notNull().default(0),
    /** the driver's last failure, shown to operators; null once it works */
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('dedicated_nodes_account_created_idx').on(t.accountId, t.createdAt),
    index('dedicated_nodes_status_expires_idx').on(t.status, t.expiresAt),
    check('dedicated_nodes_months_positive', sql`${t.months} > 0`),
  ],
);
export type TDedicatedNodeRow = typeof dedicatedNodes.$inferSelect;

/**
 * One paid order: the purchase that created a node, or a renewal. The request key (the caller's idempotency key)
 * is unique per account, so a retried or doubled request pays once; the money ledger's entry refers to the order.
 */
export const dedicatedNodeOrders = pgTable(
  'dedicated_node_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => dedicatedNodes.id, { onDelete: 'cascade' }),
    /** who asked (null: the system, e.g. a future auto-renewal) */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: dnOrderKind('kind').notNull(),
    requestKey: text('request_key').notNull(),
    months: integer('months').notNull(),
    /** the catalogue's monthly price and the period's discount when ordered */
    monthlyCents: bigint('monthly_cents', { mode: 'number' }).notNull(),
    discountPercent: integer('discount_percent').notNull(),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    /** what paid: the wallet, or a card (the payment credited to the wallet and debited by the order at once) */
    channel: text('channel').$type<'wallet' | 'card'>().notNull(),
    skuVersion: text('sku_version').notNull(),
    /** the node's expiry before this order (null for the purchase) and after it */
    expiresBefore: timestamp('expires_before', { withTimezone: true, mode: 'date' }),
    expiresAfter: timestamp('expires_after', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('dedicated_node_orders_request_key_unique').on(t.accountId, t.requestKey),
    index('dedicated_node_orders_node_idx').on(t.nodeId, t.createdAt),
  ],
);
export type TDedicatedNodeOrderRow = typeof dedicatedNodeOrders.$inferSelect;

/**
 * The node's history: every status change with its time and why, and notes that keep the status (the process
 * restarted, the data deleted at the end of the grace period).
 */
export const dedicatedNodeEvents = pgTable(
  'dedicated_node_events',
  {
    /** insertion order: events of one moment (a test clock, one transaction) keep the order they happened in */
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => dedicatedNodes.id, { onDelete: 'cascade' }),
    /** the status from this moment on */
    status: dnStatus('status').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    /** a code of DN_EVENT_REASONS (packages/contract): the web words it */
    reason: text('reason').notNull(),
  },
  (t) => [index('dedicated_node_events_node_idx').on(t.nodeId, t.seq)],
);
export type TDedicatedNodeEventRow = typeof dedicatedNodeEvents.$inferSelect;
