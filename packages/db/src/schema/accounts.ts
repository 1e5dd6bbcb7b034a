/** Accounts own things (ARCHITECTURE.md): every user has a personal account, every team is an account. */
import { sql } from 'drizzle-orm';
import { bigint, index, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const accountKind = pgEnum('account_kind', ['personal', 'team']);

export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: accountKind('kind').notNull(),
    name: text('name').notNull(),
    /** A team's note (hub_editTeamNote); empty for personal accounts. */
    note: text('note').notNull().default(''),
    /**
     * Set when a team is disbanded: members are gone and its keys deleted, but its ledgers, invoices and audit log
     * stay (they are the record of what was billed).
     */
    disbandedAt: timestamp('disbanded_at', { withTimezone: true, mode: 'date' }),
    /** Rate-limit tier id (apps/gateway/config/tiers.json). */
    tier: text('tier').notNull().default('free'),
    /**
     * Cache of sum(ru_ledger.delta) for this account, updated in the same transaction as every ledger insert
     * (services/ledger/append-ru-ledger.ts). The ledger is the truth; tests compare the two.
     */
    ruBalance: bigint('ru_balance', { mode: 'number' }).notNull().default(0),
    /**
     * Ledger entries behind ru_balance (+1 with every entry): orders balance snapshots, so gateways sharing an RU pool
     * in Redis never replace a newer balance with an older one (apps/server/src/gateway/redis-balance.ts).
     */
    ruVersion: bigint('ru_version', { mode: 'number' }).notNull().default(0),
    /**
     * Cache of sum(money_ledger.delta) in USD cents, moved in the same transaction as every money ledger insert
     * (services/wallet/post-money.ts). Negative is arrears (pay-as-you-go beyond the wallet).
     */
    walletCents: bigint('wallet_cents', { mode: 'number' }).notNull().default(0),
    /**
     * RUs pay-as-you-go can still bill (0 without an active pay-as-you-go package): what the wallet plus the arrears
     * limit buys at its price. The gateway spends ru_balance + payg_allowance_ru; kept with every money posting.
     */
    paygAllowanceRu: bigint('payg_allowance_ru', { mode: 'number' }).notNull().default(0),
    /** Pay-as-you-go charges below a cent carried to the next bill, in millionths of a cent (never lost, never rounded up). */
    paygCarryMicroCents: bigint('payg_carry_micro_cents', { mode: 'number' }).notNull().default(0),
    /**
     * Set while a spend limit with action 'stop' is reached (until the month ends or the cap is raised): the gateway
     * then has nothing to spend for the account (spendableRu below).
     */
    spendBlockedUntil: timestamp('spend_blocked_until', { withTimezone: true, mode: 'date' }),
    /**
     * IANA zone whose local days the day rollups (usage_day*) use. Null until the first report call, which sets it
     * from the caller's zone and rebuilds the day rollups (services/reports/account-time-zone.ts).
     */
    timeZone: text('time_zone'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // Disbanded teams only (few beside every user's personal account): the settling sweep looks there each minute
    // for money that arrived after disbanding. On disbanded_at alone: a predicate on wallet_cents would cost every
    // account's wallet update its HOT path.
    index('accounts_disbanded_idx')
      .on(t.disbandedAt)
      .where(sql`${t.disbandedAt} is not null`),
  ],
);

export type TAccountRow = typeof accounts.$inferSelect;

/**
 * What the gateway may spend for an account: RUs left (the ledger's cache) plus what pay-as-you-go can still bill,
 * or nothing while a spend limit stops it. Every gateway read of an account's RUs goes through this one expression.
 */
export const spendableRu = sql<number>`(case when ${accounts.spendBlockedUntil} is not null then 0
  else ${accounts.ruBalance} + ${accounts.paygAllowanceRu} end)`.mapWith(Number);
