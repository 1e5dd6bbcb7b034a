/**
 * Crypto deposits: one address per account and chain (derived from the operator's xpub at `derivation_index`),
 * every on-chain transfer to one of them seen by the watcher, and the watcher's cursor per chain. A deposit is
 * credited once: (chain, tx_hash, log_index) is unique and the money ledger entry's ref repeats it.
 */
import {
  bigint,
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    chain: text('chain').notNull(),
    /** lower-case 0x address */
    address: text('address').notNull(),
    derivationIndex: integer('derivation_index').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.chain] }),
    uniqueIndex('deposit_addresses_chain_address_unique').on(t.chain, t.address),
    uniqueIndex('deposit_addresses_chain_index_unique').on(t.chain, t.derivationIndex),
  ],
);

export type TDepositStatus = 'pending' | 'confirmed' | 'orphaned';

export const deposits = pgTable(
  'deposits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    chain: text('chain').notNull(),
    coin: text('coin').notNull(),
    txHash: text('tx_hash').notNull(),
    /** the log's index in its block; -1 for a native transfer */
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    fromAddress: text('from_address'),
    toAddress: text('to_address').notNull(),
    /** base units, exact */
    amount: numeric('amount', { precision: 78, scale: 0 }).notNull(),
    usdCents: bigint('usd_cents', { mode: 'number' }).notNull(),
    status: text('status').$type<TDepositStatus>().notNull().default('pending'),
    /** hidden from the pending list by the user (hub_delWalletDepositPending); still credited */
    hidden: boolean('hidden').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    creditedAt: timestamp('credited_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('deposits_chain_tx_log_unique').on(t.chain, t.txHash, t.logIndex),
    index('deposits_account_created_idx').on(t.accountId, t.createdAt),
    index('deposits_status_idx').on(t.status, t.chain),
  ],
);
export type TDepositRow = typeof deposits.$inferSelect;

/** How far the watcher has scanned a chain (the last block it processed and that block's hash, for re-orgs). */
export const chainCursors = pgTable('chain_cursors', {
  chain: text('chain').primaryKey(),
  blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
  blockHash: text('block_hash').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
