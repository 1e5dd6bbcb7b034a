/**
 * The append-only RU ledger: the source of truth for an account's RU balance (sum of delta). Credits are
 * positive, debits negative. UNIQUE(account_id, kind, ref) makes every entry idempotent: the register gift has
 * ref = the user id, a usage debit ref = the usage batch id.
 */
import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

export const RU_LEDGER_KINDS = [
  'register_gift',
  'usage',
  'adjustment',
  /** a package's RUs credited (ref: package id) */
  'package',
  /** what an expired package had left, taken back (ref: package id) */
  'package_expired',
  /** RUs beyond the packages billed to pay-as-you-go (ref: usage batch id) */
  'payg',
] as const;
export type TRuLedgerKind = (typeof RU_LEDGER_KINDS)[number];

export const ruLedger = pgTable(
  'ru_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    delta: bigint('delta', { mode: 'number' }).notNull(),
    kind: text('kind').$type<TRuLedgerKind>().notNull(),
    ref: text('ref').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ru_ledger_idempotency_unique').on(t.accountId, t.kind, t.ref),
    index('ru_ledger_account_created_idx').on(t.accountId, t.createdAt),
  ],
);

export type TRuLedgerRow = typeof ruLedger.$inferSelect;
