/**
 * Money and RU packages (docs/decisions/wallet-and-packages.md). Money is integer USD cents in an append-only
 * ledger beside the RU ledger; accounts.wallet_cents caches its sum. A package is RUs with an expiry, bought by a
 * purchase; usage spends packages oldest expiry first (the RU ledger stays the truth of RUs left).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
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

export const MONEY_LEDGER_KINDS = [
  /** a crypto deposit credited (ref: chain:txHash:logIndex) */
  'deposit',
  /** a package bought from the wallet (ref: purchase id) */
  'purchase',
  /** pay-as-you-go RUs billed after a usage batch (ref: usage batch id) */
  'payg',
  /** an operator's correction (ref: chosen by the operator) */
  'adjustment',
  /** a card payment received through Stripe (ref: the PaymentIntent id) */
  'card_payment',
  /** a dedicated node bought from the wallet (ref: dedicated_node_orders id) */
  'dn_purchase',
  /** a dedicated node renewed from the wallet (ref: dedicated_node_orders id) */
  'dn_renewal',
  /**
   * a disbanded team's balance moved to its owner's personal wallet, one entry on each (ref: disband:<team id> at
   * disbanding; disband-settle:<team id>:<n> for the n-th move of money or arrears that came after)
   */
  'team_transfer',
] as const;
export type TMoneyLedgerKind = (typeof MONEY_LEDGER_KINDS)[number];

export const moneyLedger = pgTable(
  'money_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull().default('USD'),
    /** minor units (cents); credits positive, debits negative */
    delta: bigint('delta', { mode: 'number' }).notNull(),
    kind: text('kind').$type<TMoneyLedgerKind>().notNull(),
    ref: text('ref').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('money_ledger_idempotency_unique').on(t.accountId, t.kind, t.ref),
    index('money_ledger_account_created_idx').on(t.accountId, t.createdAt),
  ],
);
export type TMoneyLedgerRow = typeof moneyLedger.$inferSelect;

export const PACKAGE_STATUS_VALUES = ['active', 'exhausted', 'expired', 'replaced'] as const;
export type TPackageStatus = (typeof PACKAGE_STATUS_VALUES)[number];
export type TPackageType = 'standard' | 'default' | 'free' | 'enterprise';

export const ruPackages = pgTable(
  'ru_packages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    skuId: text('sku_id').notNull(),
    skuVersion: text('sku_version').notNull(),
    type: text('type').$type<TPackageType>().notNull(),
    /** the SKU's names at purchase time, so a later catalogue does not rename history */
    name: jsonb('name').$type<{ en: string; zh: string }>().notNull(),
    tier: text('tier').notNull(),
    ruTotal: bigint('ru_total', { mode: 'number' }).notNull(),
    ruUsed: bigint('ru_used', { mode: 'number' }).notNull().default(0),
    /** pay-as-you-go terms while active (null for RU packages) */
    paygCentsPerMillionRu: integer('payg_cents_per_million_ru'),
    arrearsLimitCents: bigint('arrears_limit_cents', { mode: 'number' }),
    status: text('status').$type<TPackageStatus>().notNull().default('active'),
    autoRenew: boolean('auto_renew').notNull().default(false),
    /** what an auto-renewal charges: the wallet, or a card (renewCardId, else the account's default card) */
    renewChannel: text('renew_channel').$type<'wallet' | 'card'>().notNull().default('wallet'),
    renewCardId: text('renew_card_id'),
    startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** null: never expires (the register gift) */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    /** set once the package was renewed, so a sweep never renews it twice */
    renewedBy: uuid('renewed_by'),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('ru_packages_account_status_idx').on(t.accountId, t.status, t.expiresAt),
    index('ru_packages_status_expires_idx').on(t.status, t.expiresAt),
    check('ru_packages_used_within_total', sql`${t.ruUsed} >= 0 AND ${t.ruUsed} <= ${t.ruTotal}`),
  ],
);
export type TRuPackageRow = typeof ruPackages.$inferSelect;

export type TPurchaseReason = 'purchase' | 'auto_renew' | 'monthly_free' | 'grant';

export const purchases = pgTable(
  'purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** who bought it (null: the system, e.g. an auto-renewal) */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** unique per account: the caller's idempotency key, or a system key (renew:<package>, free:<sku>:<month>) */
    requestKey: text('request_key').notNull(),
    skuId: text('sku_id').notNull(),
    skuVersion: text('sku_version').notNull(),
    type: text('type').$type<TPackageType>().notNull(),
    name: jsonb('name').$type<{ en: string; zh: string }>().notNull(),
    reason: text('reason').$type<TPurchaseReason>().notNull(),
    channel: text('channel').$type<'crypto' | 'card'>().notNull(),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
    paidCents: bigint('paid_cents', { mode: 'number' }).notNull(),
    discountCode: text('discount_code'),
    ru: bigint('ru', { mode: 'number' }).notNull(),
    packageId: uuid('package_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('purchases_request_key_unique').on(t.accountId, t.requestKey),
    index('purchases_account_created_idx').on(t.accountId, t.createdAt),
  ],
);
export type TPurchaseRow = typeof purchases.$inferSelect;

/** Discount codes an operator issues; each applies to one purchase per account. */
export const discountCodes = pgTable('discount_codes', {
  code: text('code').primaryKey(),
  percentOff: integer('percent_off').notNull(),
  /** SKUs it applies to; empty: every purchasable SKU */
  skuIds: jsonb('sku_ids').$type<string[]>().notNull().default([]),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** The code an account attached (at most one at a time) and when a purchase used it. */
export const accountDiscounts = pgTable(
  'account_discounts',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    code: text('code')
      .notNull()
      .references(() => discountCodes.code, { onDelete: 'cascade' }),
    attachedAt: timestamp('attached_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    purchaseId: uuid('purchase_id'),
  },
  (t) => [uniqueIndex('account_discounts_account_code_unique').on(t.accountId, t.code)],
);
