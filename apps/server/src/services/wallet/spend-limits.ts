/**
 * Monthly spend limits (UTC calendar month): an RU cap and a money cap, alerts at chosen percentages, and with
 * action 'stop' the account's keys stop at a cap (accounts.spend_blocked_until, which zeroes spendableRu for every
 * gateway) until the month ends or the cap is raised. The stop is set in the usage batch's own transaction, so it
 * reaches the gateway with the batch's settled state: overshoot is at most what was in flight plus one flush.
 */
import type { TParams, TSpendLimits } from '@rpc/contract';
import {
  accounts,
  moneyLedger,
  ruLedger,
  spendAlerts,
  spendLimits,
  type TExecutor,
  type TSpendLimitRow,
} from '@rpc/db';
import { and, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { raiseNotice } from '../notices/raise-notice';
import { publishAccountChange } from './account-tier';
import { monthOf } from './claim-monthly-free';
import type { TWalletCaller, TWalletDeps } from './wallet-caller';

export type TMonthUsage = { key: string; ruUsed: number; centsSpent: number };

export async function monthUsage(
  db: TExecutor,
  accountId: string,
  now: number,
): Promise<TMonthUsage> {
  const month = monthOf(now);
  const d = new Date(now);
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const [ru] = await db
    .select({ used: sql<string | null>`-sum(${ruLedger.delta})` })
    .from(ruLedger)
    .where(
      and(
        eq(ruLedger.accountId, accountId),
        eq(ruLedger.kind, 'usage'),
        gte(ruLedger.createdAt, start),
      ),
    );
  const [money] = await db
    .select({ spent: sql<string | null>`-sum(${moneyLedger.delta})` })
    .from(moneyLedger)
    .where(
      and(
        eq(moneyLedger.accountId, accountId),
        // What the account spent: packages, pay-as-you-go usage and dedicated nodes (a card payment is credited,
        // then spent by one of these, so it is counted once).
        inArray(moneyLedger.kind, ['purchase', 'payg', 'dn_purchase', 'dn_renewal']),
        gte(moneyLedger.createdAt, start),
      ),
    );
  return { key: month.key, ruUsed: Number(ru?.used ?? 0), centsSpent: Number(money?.spent ?? 0) };
}

function isOverCap(limit: TSpendLimitRow, usage: TMonthUsage): boolean {
  return (
    (limit.monthlyRuCap !== null && usage.ruUsed >= limit.monthlyRuCap) ||
    (limit.monthlyCentsCap !== null && usage.centsSpent >= limit.monthlyCentsCap)
  );
}

/**
 * Sets or clears the stop for the account as its limit and this month's usage say; returns whether it changed.
 * Called in the usage batch's transaction (after the debit) and when the limits change.
 */
export async function enforceSpendLimit(
  tx: TExecutor,
  accountId: string,
  now: number,
): Promise<boolean> {
  const [limit] = await tx.select().from(spendLimits).where(eq(spendLimits.accountId, accountId));
  // No limit row, no stop to set or clear (rows are never deleted): the usual case costs one lookup.
  if (!limit) return false;
  const shouldStop =
    limit.action === 'stop' && isOverCap(limit, await monthUsage(tx, accountId, now));
  const next = shouldStop ? new Date(monthOf(now).nextStart) : null;
  const changed = await tx
    .update(accounts)
    .set({ spendBlockedUntil: next, ruVersion: sql`${accounts.ruVersion} + 1` })
    .where(
      and(
        eq(accounts.id, accountId),
        next
          ? sql`${accounts.spendBlockedUntil} is distinct from ${next.toISOString()}::timestamptz`
          : isNotNull(accounts.spendBlockedUntil),
      ),
    )
    .returning({ id: accounts.id });
  return changed.length > 0;
}

async function view(db: TExecutor, accountId: string, now: number): Promise<TSpendLimits> {
  const [limit] = await db.select().from(spendLimits).where(eq(spendLimits.accountId, accountId));
  const [account] = await db
    .select({ blockedUntil: accounts.spendBlockedUntil })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return {
    monthlyRuCap: limit?.monthlyRuCap ?? null,
    monthlyCentsCap: limit?.monthlyCentsCap ?? null,
    action: limit?.action ?? 'alert',
    alertPercents: limit?.alertPercents ?? [50, 80, 100],
    month: await monthUsage(db, accountId, now),
    blockedUntil: account?.blockedUntil?.getTime() ?? null,
  };
}

export function getSpendLimits(
  deps: Pick<TWalletDeps, 'db' | 'clock'>,
  caller: TWalletCaller,
): Promise<TSpendLimits> {
  return view(deps.db, caller.accountId, deps.clock.now());
}

export async function setSpendLimits(
  deps: TWalletDeps,
  caller: TWalletCaller,
  params: TParams<'hub_setSpendLimits'>,
): Promise<TSpendLimits> {
  const now = deps.clock.now();
  const values = {
    monthlyRuCap: params.monthlyRuCap,
    monthlyCentsCap: params.monthlyCentsCap,
    action: params.action,
    alertPercents: params.alertPercents,
    updatedAt: new Date(now),
  };
  const changed = await deps.db.transaction(async (tx) => {
    await tx
      .insert(spendLimits)
      .values({ accountId: caller.accountId, ...values })
      .onConflictDoUpdate({ target: spendLimits.accountId, set: values });
    return enforceSpendLimit(tx, caller.accountId, now);
  });
  if (changed) await publishAccountChange(deps, caller.accountId);
  return view(deps.db, caller.accountId, now);
}

/**
 * The sweep's part: alerts for every threshold crossed this month (once each, as notices, which are also mailed),
 * and stops that a new month ended. Returns the accounts whose stop changed (to tell the gateways).
 */
export async function sweepSpendLimits(deps: TWalletDeps, now: number): Promise<string[]> {
  const changed: string[] = [];
  const lapsed = await deps.db
    .update(accounts)
    .set({ spendBlockedUntil: null, ruVersion: sql`${accounts.ruVersion} + 1` })
    .where(lte(accounts.spendBlockedUntil, new Date(now)))
    .returning({ id: accounts.id });
  changed.push(...lapsed.map((a) => a.id));

  const limits = await deps.db.select().from(spendLimits).limit(10_000);
  for (const limit of limits) {
    const usage = await monthUsage(deps.db, limit.accountId, now);
    for (const [metric, cap, used] of [
      ['ru', limit.monthlyRuCap, usage.ruUsed],
      ['cents', limit.monthlyCentsCap, usage.centsSpent],
    ] as const) {
      if (cap === null) continue;
      const reached = limit.alertPercents.filter((p) => used * 100 >= cap * p);
      const top = reached.length > 0 ? Math.max(...reached) : undefined;
      if (top === undefined) continue;
      const fresh = await deps.db
        .insert(spendAlerts)
        .values({
          accountId: limit.accountId,
          month: usage.key,
          metric,
          percent: top,
          sentAt: new Date(now),
        })
        .onConflictDoNothing()
        .returning({ percent: spendAlerts.percent });
      if (fresh.length === 0) continue;
      const what =
        metric === 'ru'
          ? `${used.toLocaleString('en-US')} of ${cap.toLocaleString('en-US')} RU`
          : `$${(used / 100).toFixed(2)} of $${(cap / 100).toFixed(2)}`;
      const stops = limit.action === 'stop' && top >= 100;
      await raiseNotice({
        db: deps.db,
        bus: deps.noticeBus,
        at: now,
        type: 'normal_warn',
        accountId: limit.accountId,
        title: stops ? 'Monthly limit reached: keys stopped' : `Monthly limit: ${top}% used`,
        content: stops
          ? `This month's usage reached your limit (${what}). Your keys are refused until the month ends or you raise the limit.`
          : `This month's usage is at ${top}% of your limit (${what}).`,
        expand: { type: `spend_${metric}`, amount: used },
      });
    }
    if (await enforceSpendLimit(deps.db, limit.accountId, now)) changed.push(limit.accountId);
  }
  return [...new Set(changed)];
}
