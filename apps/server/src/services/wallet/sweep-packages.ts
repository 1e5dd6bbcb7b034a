/**
 * The package sweep (a periodic job, also called by tests with a moved clock): expires packages whose time is up
 * (their unspent RUs leave the ledger), renews those with auto-renew from the wallet when they expire or run out
 * (once per package: the renewal's request key is renew:<package id>), warns when a package runs low, and
 * re-derives tiers. Every step is idempotent, so two sweeps at once or a sweep retried after a crash change
 * nothing twice.
 */
import { ERROR_CODES, formatCents, type TErrorCode, type TNoticeType } from '@rpc/contract';
import {
  accounts,
  notices,
  ruPackages,
  type TExecutor,
  type TNoticeRow,
  type TRuPackageRow,
} from '@rpc/db';
import { and, asc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { RpcError } from '../../rpc/errors';
import { appendRuLedger } from '../ledger/append-ru-ledger';
import { raiseNotice } from '../notices/raise-notice';
import { publishAccountChange, refreshAccountTier } from './account-tier';
import { refreshPaygAllowance } from './post-money';
import { renewPackageByCard } from '../cards/subscriptions';
import { purchasePackage } from './purchase-package';
import { reconcilePackages } from './reconcile-packages';
import { lockAccount } from './lock-account';
import { findSku } from './sku-catalogue';
import { sweepSpendLimits } from './spend-limits';
import type { TWalletDeps } from './wallet-caller';

/** A package with this share or less of its RUs left raises ru_pkg_running_out (once a day per account). */
export const RUNNING_OUT_PERCENT = 10;
/** With pay-as-you-go active, a wallet at or under this raises low_balance (once a day per account). */
export const LOW_BALANCE_CENTS = 500;
const BATCH = 200;

export type TSweepResult = {
  expired: number;
  renewed: number;
  renewFailed: number;
  warned: number;
  lowBalance: number;
};

export async function sweepPackages(deps: TWalletDeps): Promise<TSweepResult> {
  const now = deps.clock.now();
  const result: TSweepResult = { expired: 0, renewed: 0, renewFailed: 0, warned: 0, lowBalance: 0 };
  const touched = new Set<string>();

  const due = await deps.db
    .select()
    .from(ruPackages)
    .where(and(eq(ruPackages.status, 'active'), lte(ruPackages.expiresAt, new Date(now))))
    .limit(BATCH);
  for (const pkg of due) {
    if (await expirePackage(deps, pkg, now)) result.expired += 1;
    touched.add(pkg.accountId);
  }

  // Expired or run out, with auto-renew, not renewed yet.
  const toRenew = await deps.db
    .select()
    .from(ruPackages)
    .where(
      and(
        eq(ruPackages.autoRenew, true),
        isNull(ruPackages.renewedBy),
        sql`${ruPackages.status} in ('expired', 'exhausted')`,
      ),
    )
    .limit(BATCH);
  for (const pkg of toRenew) {
    // Each renewal re-reads its package: the list is read once and renewals (card ones call Stripe) take a while,
    // so auto-renew may have been turned off, or the package renewed, since.
    const renewed = await renewPackage(deps, pkg, now);
    if (renewed === true) result.renewed += 1;
    else if (renewed === false) result.renewFailed += 1;
    touched.add(pkg.accountId);
  }

  const low = await deps.db
    .select()
    .from(ruPackages)
    .where(
      and(
        eq(ruPackages.status, 'active'),
        sql`${ruPackages.ruTotal} > 0`,
        sql`(${ruPackages.ruTotal} - ${ruPackages.ruUsed}) * 100 <= ${ruPackages.ruTotal} * ${RUNNING_OUT_PERCENT}`,
        notWarnedToday(ruPackages.accountId, 'ru_pkg_running_out', now),
      ),
    )
    .orderBy(asc(ruPackages.accountId))
    .limit(BATCH);
  for (const pkg of low) {
    const raised = await raiseNotice({
      db: deps.db,
      bus: deps.noticeBus,
      at: now,
      type: 'ru_pkg_running_out',
      accountId: pkg.accountId,
      dedupeMs: 86_400_000,
      title: 'Package running out',
      content: `${pkg.name.en} has ${(pkg.ruTotal - pkg.ruUsed).toLocaleString('en-US')} RU left.`,
      expand: { skuName: pkg.name.en, amount: pkg.ruTotal - pkg.ruUsed },
    });
    if (raised.length > 0) result.warned += 1;
  }

  // Pay-as-you-go bills the wallet as RUs are used: say so before it runs dry (arrears and then refusals).
  const lowWallets = await deps.db
    .selectDistinct({ accountId: accounts.id, walletCents: accounts.walletCents })
    .from(accounts)
    .innerJoin(ruPackages, eq(ruPackages.accountId, accounts.id))
    .where(
      and(
        eq(ruPackages.type, 'default'),
        eq(ruPackages.status, 'active'),
        gt(ruPackages.expiresAt, new Date(now)),
        lte(accounts.walletCents, LOW_BALANCE_CENTS),
        notWarnedToday(accounts.id, 'low_balance', now),
      ),
    )
    .orderBy(asc(accounts.id))
    .limit(BATCH);
  for (const a of lowWallets) {
    const raised = await raiseNotice({
      db: deps.db,
      bus: deps.noticeBus,
      at: now,
      type: 'low_balance',
      accountId: a.accountId,
      dedupeMs: 86_400_000,
      title: 'Wallet balance is low',
      content: `Your wallet balance is down to $${formatCents(a.walletCents)}. Pay-as-you-go bills it as you use RUs.`,
      expand: { amount: formatCents(a.walletCents) },
    });
    if (raised.length > 0) result.lowBalance += 1;
  }

  for (const accountId of await sweepSpendLimits(deps, now)) touched.add(accountId);

  for (const accountId of touched) await publishAccountChange(deps, accountId);
  return result;
}

/**
 * No notice of `type` for the account in the last day. Without it the once-a-day rule would turn the first BATCH
 * rows into no-ops every sweep, and accounts past them would never be warned.
 */
function notWarnedToday(accountId: AnyPgColumn, type: TNoticeType, now: number) {
  return sql`not exists (select 1 from ${notices} where ${notices.accountId} = ${accountId} and ${notices.type} = ${type} and ${notices.createdAt} > ${new Date(now - 86_400_000).toISOString()}::timestamptz)`;
}

async function expirePackage(deps: TWalletDeps, pkg: TRuPackageRow, now: number): Promise<boolean> {
  const { changed, notices } = await deps.db.transaction(async (tx) => {
    // Re-read under the account lock reconcile takes: another sweep may have expired it already.
    await reconcilePackages(tx, { accountId: pkg.accountId, now, ref: `expire:${pkg.id}` });
    const [fresh] = await tx
      .update(ruPackages)
      .set({ status: 'expired', endedAt: new Date(now) })
      .where(and(eq(ruPackages.id, pkg.id), eq(ruPackages.status, 'active')))
      .returning();
    if (!fresh) return { changed: false, notices: [] as TNoticeRow[] };
    const left = fresh.ruTotal - fresh.ruUsed;
    if (left > 0)
      await appendRuLedger(tx, {
        accountId: pkg.accountId,
        delta: -left,
        kind: 'package_expired',
        ref: pkg.id,
        at: now,
      });
    await refreshPaygAllowance(tx, pkg.accountId, now);
    await refreshAccountTier(tx, pkg.accountId, now);
    const raised = await raiseNotice({
      db: tx,
      at: now,
      type: 'expired',
      accountId: pkg.accountId,
      title: 'Package expired',
      content: `${pkg.name.en} expired${left > 0 ? ` with ${left.toLocaleString('en-US')} RU unused` : ''}.`,
      expand: { skuName: pkg.name.en, amount: left, timeStamp: pkg.expiresAt?.getTime() ?? now },
    });
    return { changed: true, notices: raised };
  });
  deps.noticeBus.push(notices);
  return changed;
}

/**
 * The package as it is now if it still asks to be renewed (auto-renew on, not renewed yet), else undefined (`lock`:
 * its row locked). The renewal follows this row, not the sweep's copy: the channel or the pinned card may have
 * changed since.
 */
async function stillRenews(
  db: TExecutor,
  pkgId: string,
  lock: boolean,
): Promise<TRuPackageRow | undefined> {
  const q = db
    .select()
    .from(ruPackages)
    .where(
      and(eq(ruPackages.id, pkgId), eq(ruPackages.autoRenew, true), isNull(ruPackages.renewedBy)),
    );
  return (await (lock ? q.for('update') : q))[0];
}

/**
 * Renews one package found by the sweep: true renewed, false failed (auto-renew turned off), 'pending' a card
 * payment not settled yet, 'skipped' auto-renew was turned off or the package renewed since the sweep read it.
 * Exported for tests.
 */
export async function renewPackage(
  deps: TWalletDeps,
  pkg: TRuPackageRow,
  now: number,
): Promise<boolean | 'pending' | 'skipped'> {
  const sku = findSku(deps.skus, pkg.skuId);
  // A re-read before anything is charged (no lock across Stripe's calls; the wallet path re-reads under its lock
  // below). An order placed for this renewal before auto-renew went off is settled by its webhook or a poll, as
  // every card order is, into the wallet without renewing (cards/settle-order.ts).
  const current = await stillRenews(deps.db, pkg.id, false);
  if (!current) return 'skipped';
  if (current.renewChannel === 'card' && sku?.isPurchasable && sku.canAutoRenew) {
    const outcome = await renewPackageByCard(deps, current, sku);
    if (outcome.status === 'renewed') return true;
    if (outcome.status === 'pending') return 'pending';
    await turnOffAfterCardFailure(deps, pkg, now, outcome.failureCode ?? 'failed');
    return false;
  }
  try {
    if (!sku?.isPurchasable || !sku.canAutoRenew) throw new RpcError(ERROR_CODES.SKU_UNAVAILABLE);
    const outcome = await deps.db.transaction(async (tx) => {
      // The account first, then the package (the order every writer of both takes), and the package re-read under
      // its lock: turning auto-renew off now waits for this renewal, or this renewal sees it off.
      await lockAccount(tx, pkg.accountId);
      // (Switched to card meanwhile: the next sweep renews it by card.)
      const fresh = await stillRenews(tx, pkg.id, true);
      if (fresh?.renewChannel !== current.renewChannel) return null;
      const bought = await purchasePackage(tx, {
        accountId: pkg.accountId,
        userId: null,
        sku,
        catalogueVersion: deps.skus.version,
        seller: deps.config.invoiceSeller,
        requestKey: `renew:${pkg.id}`,
        reason: 'auto_renew',
        autoRenew: true,
        useDiscount: true,
        now,
      });
      await tx
        .update(ruPackages)
        .set({ renewedBy: bought.pkg.id })
        .where(eq(ruPackages.id, pkg.id));
      return bought;
    });
    if (!outcome) return 'skipped';
    deps.noticeBus.push(outcome.notices);
    return true;
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    await turnOffAfterFailure(deps, pkg, now, err.code);
    return false;
  }
}

/**
 * A card renewal that failed (declined, authentication needed off-session, no card): auto-renew turns off and the
 * account hears of it: free_card_auto_scaling_failed when it is left on the free tier, else card_auto_scaling_failed.
 */
async function turnOffAfterCardFailure(
  deps: TWalletDeps,
  pkg: TRuPackageRow,
  now: number,
  failureCode: string,
): Promise<void> {
  const notices = await deps.db.transaction(async (tx) => {
    await lockAccount(tx, pkg.accountId);
    const [off] = await tx
      .update(ruPackages)
      .set({ autoRenew: false })
      .where(and(eq(ruPackages.id, pkg.id), eq(ruPackages.autoRenew, true)))
      .returning({ id: ruPackages.id });
    if (!off) return [];
    const [account] = await tx
      .select({ tier: accounts.tier })
      .from(accounts)
      .where(eq(accounts.id, pkg.accountId));
    const isFree = account?.tier === 'free';
    return raiseNotice({
      db: tx,
      at: now,
      type: isFree ? 'free_card_auto_scaling_failed' : 'card_auto_scaling_failed',
      accountId: pkg.accountId,
      title: 'Card renewal failed',
      content: `${pkg.name.en} could not be renewed by card (${failureCode}). Auto-renewal is off${isFree ? '; the account is on the free tier now' : ''}.`,
      expand: { skuName: pkg.name.en, type: failureCode },
    });
  });
  deps.noticeBus.push(notices);
}

/** A renewal that cannot be paid turns auto-renew off and says why, so it is not retried every sweep. */
async function turnOffAfterFailure(
  deps: TWalletDeps,
  pkg: TRuPackageRow,
  now: number,
  code: TErrorCode,
): Promise<void> {
  const notices = await deps.db.transaction(async (tx) => {
    await lockAccount(tx, pkg.accountId);
    const [off] = await tx
      .update(ruPackages)
      .set({ autoRenew: false })
      .where(and(eq(ruPackages.id, pkg.id), eq(ruPackages.autoRenew, true)))
      .returning({ id: ruPackages.id });
    if (!off) return [];
    return raiseNotice({
      db: tx,
      at: now,
      type: 'auto_renew_off',
      accountId: pkg.accountId,
      title: 'Auto-renewal failed',
      content:
        code === ERROR_CODES.INSUFFICIENT_BALANCE
          ? `${pkg.name.en} could not be renewed: the wallet balance is not enough. Auto-renewal is off.`
          : `${pkg.name.en} can no longer be renewed automatically. Auto-renewal is off.`,
      expand: { skuName: pkg.name.en, type: String(code) },
    });
  });
  deps.noticeBus.push(notices);
}
