/**
 * Spend limits an account sets for itself (beyond the SPEC anchors, as Alchemy and QuickNode offer): a monthly RU
 * cap and a monthly money cap (UTC calendar month), each alerting at chosen percentages and, with action 'stop',
 * stopping the gateway for the account until the month ends or the cap is raised (accounts.spend_blocked_until).
 * spend_alerts records each alert sent, so one is sent once per month, metric and threshold.
 */
import {
  bigint,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

export type TSpendAction = 'alert' | 'stop';
export type TSpendMetric = 'ru' | 'cents';

export const spendLimits = pgTable('spend_limits', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  monthlyRuCap: bigint('monthly_ru_cap', { mode: 'number' }),
  monthlyCentsCap: bigint('monthly_cents_cap', { mode: 'number' }),
  action: text('action').$type<TSpendAction>().notNull().default('alert'),
  /** percentages of a cap at which an alert is sent, e.g. [50, 80, 100] */
  alertPercents: jsonb('alert_percents').$type<number[]>().notNull().default([50, 80, 100]),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
export type TSpendLimitRow = typeof spendLimits.$inferSelect;

export const spendAlerts = pgTable(
  'spend_alerts',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** "2026-11" (UTC) */
    month: text('month').notNull(),
    metric: text('metric').$type<TSpendMetric>().notNull(),
    percent: integer('percent').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.month, t.metric, t.percent] })],
);
