/**
 * Invoices (docs/decisions/invoices.md). Every paid purchase gets one invoice, issued in the purchase's own
 * transaction: a number without gaps per account and UTC year (INV-2026-000001) from invoice_counters, and a
 * snapshot of the seller, of the buyer's billing details and of the line, so later edits change no issued invoice.
 * A public link is an opaque code whose SHA-256 alone is stored here (null: no link, or revoked).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { dedicatedNodeOrders } from './dedicated-nodes';
import { purchases } from './wallet';

/** The billing details an account keeps for its invoices; '' is "not given". */
export type TInvoiceBuyerSnapshot = {
  name: string;
  company: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  taxId: string;
  email: string;
};

/** The operator as the invoice printed it when issued (INVOICE_SELLER_* then). */
export type TInvoiceSellerSnapshot = {
  name: string;
  addressLines: string[];
  email: string;
  taxId: string;
};

export type TInvoiceLineSnapshot = {
  skuId: string;
  /** the SKU's names at purchase time */
  name: { en: string; zh: string };
  ru: number;
  quantity: number;
  unitCents: number;
  amountCents: number;
};

export const invoiceConfigs = pgTable('invoice_configs', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  name: text('name').notNull().default(''),
  company: text('company').notNull().default(''),
  addressLine1: text('address_line1').notNull().default(''),
  addressLine2: text('address_line2').notNull().default(''),
  city: text('city').notNull().default(''),
  state: text('state').notNull().default(''),
  postalCode: text('postal_code').notNull().default(''),
  country: text('country').notNull().default(''),
  taxId: text('tax_id').notNull().default(''),
  email: text('email').notNull().default(''),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
export type TInvoiceConfigRow = typeof invoiceConfigs.$inferSelect;

/** The last number handed out per account and UTC year; moved only inside the purchase's transaction. */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    year: integer('year').notNull(),
    lastSeq: integer('last_seq').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.year] })],
);

export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** one invoice per thing paid: an RU package purchase, or (dnOrderId) a dedicated node order; exactly one is set */
    purchaseId: uuid('purchase_id').references(() => purchases.id, { onDelete: 'cascade' }),
    dnOrderId: uuid('dn_order_id').references(() => dedicatedNodeOrders.id, {
      onDelete: 'cascade',
    }),
    /** INV-<year>-<seq, six digits or more> */
    number: text('number').notNull(),
    year: integer('year').notNull(),
    seq: integer('seq').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull(),
    currency: text('currency').notNull().default('USD'),
    channel: text('channel').$type<'crypto' | 'card'>().notNull(),
    /** the seller when the invoice was issued; null only on invoices issued before migration 0023 */
    seller: jsonb('seller').$type<TInvoiceSellerSnapshot>(),
    /** the account's invoice config when the invoice was issued */
    buyer: jsonb('buyer').$type<TInvoiceBuyerSnapshot>().notNull(),
    lines: jsonb('lines').$type<TInvoiceLineSnapshot[]>().notNull(),
    subtotalCents: bigint('subtotal_cents', { mode: 'number' }).notNull(),
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull(),
    /** what was paid: the purchase's paid_cents */
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    discountCode: text('discount_code'),
    /** hex SHA-256 of the public code; null: no public link */
    publicCodeHash: text('public_code_hash'),
    publicCodeCreatedAt: timestamp('public_code_created_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_purchase_unique').on(t.purchaseId),
    uniqueIndex('invoices_dn_order_unique').on(t.dnOrderId),
    check('invoices_one_thing_paid', sql`num_nonnulls(${t.purchaseId}, ${t.dnOrderId}) = 1`),
    uniqueIndex('invoices_account_year_seq_unique').on(t.accountId, t.year, t.seq),
    uniqueIndex('invoices_public_code_hash_unique').on(t.publicCodeHash),
    index('invoices_account_issued_idx').on(t.accountId, t.issuedAt),
  ],
);
export type TInvoiceRow = typeof invoices.$inferSelect;
