/**
 * The card order sweep (a periodic job, jobs/card-order-sweep.ts; tests call it with a moved clock): settles card
 * orders nobody brings the news of. An order is settled by whoever hears first (the answer to the charge, the
 * webhook, hub_polling); when the payment was still processing at the answer, the webhook is lost and no page polls
 * (the tab was closed; a renewal has no page), the order would stay open while the card may have been charged. The
 * sweep asks Stripe about such orders, exactly as hub_polling does (refresh-order.ts), and applies the answer
 * through the one settling path (settle-order.ts), so it credits at most once whoever else is at work.
 * docs/decisions/card-payments.md has the rules, including what happens to orders open past the hard limit.
 */
import { cardOrders, type TCardOrderRow } from '@rpc/db';
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { RpcError } from '../../rpc/errors';
import { callStripe, type TCardDeps } from './card-deps';
import { findCustomerId } from './customers';
import { isSettledStatus } from './order-rows';
import { refreshOrder } from './refresh-order';
import { markOrderFailed } from './settle-order';
import type { TStripeSettings } from './stripe-settings';

/**
 * An order is left alone this long after it is placed. The normal paths finish well within it: the answer to the
 * charge (the SDK's 20 s timeout with two retries, about a minute at worst), the webhook (seconds; Stripe's first
 * redeliveries come within minutes) and a buyer's page polling while it waits. The sweep is for when all of them
 * failed, and asking Stripe earlier would only duplicate their work.
 */
export const ORDER_SWEEP_GRACE_MS = 10 * 60_000;
/** After a look, the next one waits this long, doubling with each look up to ORDER_RECHECK_MAX_MS. */
export const ORDER_RECHECK_MIN_MS = 5 * 60_000;
export const ORDER_RECHECK_MAX_MS = 60 * 60_000;
/**
 * Stripe never expires a PaymentIntent waiting for 3-D Secure by itself; past this age the sweep cancels it at Stripe
 * (the order then fails on Stripe's `canceled`), and an order that never reached Stripe fails as `not_charged`.
 */
export const ORDER_HARD_LIMIT_MS = 24 * 3_600_000;
/** Orders looked at per pass, oldest first; the rest wait for the next pass. */
export const ORDER_SWEEP_BATCH = 50;
/** This many Stripe outages in a row end a pass early: the orders not reached wait for the next one. */
const OUTAGE_STREAK = 3;
/** How far before an order's creation its PaymentIntent is looked for (clock skew only; it is made after the row). */
const LOOKBACK_S = 86_400;

const OPEN: TCardOrderRow['status'][] = ['pending', 'requires_action'];

export type TOrderSweepResult = {
  /** orders looked at */
  checked: number;
  /** paid: credited to the wallet (and the purchase made, if it still could be) */
  settled: number;
  failed: number;
  /** still open (processing, waiting for the buyer, or Stripe could not answer) */
  open: number;
  /** looks that ended in an error (logged); the order stays open */
  errors: number;
};

type TCheck = 'settled' | 'failed' | 'open' | 'error' | 'outage' | 'taken';

export async function sweepCardOrders(deps: TCardDeps): Promise<TOrderSweepResult> {
  const result: TOrderSweepResult = { checked: 0, settled: 0, failed: 0, open: 0, errors: 0 };
  const stripe = deps.stripe;
  if (!stripe) return result;
  const now = deps.clock.now();
  const nowSql = sql`${new Date(now).toISOString()}::timestamptz`;
  // Due again MIN · 2^(looks − 1) after the last look, at most MAX (the exponent is capped only to keep it finite).
  const recheckMs = sql.raw(
    `least(${ORDER_RECHECK_MIN_MS} * power(2, least("card_orders"."checks", 16) - 1), ${ORDER_RECHECK_MAX_MS})`,
  );
  const due = await deps.db
    .select()
    .from(cardOrders)
    .where(
      and(
        inArray(cardOrders.status, OPEN),
        lte(cardOrders.createdAt, new Date(now - ORDER_SWEEP_GRACE_MS)),
        or(
          isNull(cardOrders.checkedAt),
          sql`${cardOrders.checkedAt} + ${recheckMs} * interval '1 millisecond' <= ${nowSql}`,
        ),
      ),
    )
    .orderBy(asc(cardOrders.createdAt), asc(cardOrders.id))
    .limit(ORDER_SWEEP_BATCH);

  let outages = 0;
  for (const [i, row] of due.entries()) {
    const check = await checkOrder(deps, stripe, row, now);
    if (check === 'taken') continue;
    result.checked += 1;
    if (check === 'settled') result.settled += 1;
    else if (check === 'failed') result.failed += 1;
    else if (check === 'open') result.open += 1;
    else {
      result.errors += 1;
      result.open += 1;
    }
    outages = check === 'outage' ? outages + 1 : 0;
    if (outages >= OUTAGE_STREAK) {
      deps.logger.warn(
        { left: due.length - i - 1 },
        'Stripe is not answering; the other card orders wait for the next sweep',
      );
      break;
    }
  }
  return result;
}

/** One order: claimed (so a second sweep at the same time leaves it alone), asked about, applied. */
async function checkOrder(
  deps: TCardDeps,
  stripe: TStripeSettings,
  row: TCardOrderRow,
  now: number,
): Promise<TCheck> {
  const [claimed] = await deps.db
    .update(cardOrders)
    .set({ checkedAt: new Date(now), checks: row.checks + 1 })
    .where(
      and(
        eq(cardOrders.id, row.id),
        eq(cardOrders.checks, row.checks),
        inArray(cardOrders.status, OPEN),
      ),
    )
    .returning();
  if (!claimed) return 'taken';
  const isAbandoned = now - claimed.createdAt.getTime() >= ORDER_HARD_LIMIT_MS;
  const log = { orderId: claimed.id, kind: claimed.kind, accountId: claimed.accountId };
  try {
    const paymentIntentId =
      claimed.paymentIntentId ?? (await findPaymentIntentId(deps, stripe, claimed));
    if (!paymentIntentId) {
      if (!isAbandoned) return 'open';
      // The customer's PaymentIntents hold none for this order a day on: the charge never reached Stripe (an outage
      // or a crash before it), so nothing was taken. A retry of the same request still finds the order settled.
      const failed = await markOrderFailed(deps, claimed.id, 'not_charged');
      deps.logger.warn(
        { ...log, status: failed.status },
        'card order never charged; failed by the sweep',
      );
      return outcomeOf(failed);
    }
    const { order } = await refreshOrder(
      deps,
      stripe,
      { ...claimed, paymentIntentId },
      { isAbandoned },
    );
    if (isSettledStatus(order.status))
      // The webhook should have brought this: many of these mean the webhook endpoint or its secret is wrong.
      deps.logger.warn(
        { ...log, paymentIntent: paymentIntentId, status: order.status },
        'card order settled by the sweep',
      );
    else if (isAbandoned)
      deps.logger.error(
        { ...log, paymentIntent: paymentIntentId, status: order.status },
        'card payment still open past the hard limit; left open',
      );
    return outcomeOf(order);
  } catch (err) {
    const cause = err instanceof RpcError ? err.cause : err;
    if (isMissing(cause)) {
      // Stripe gave us this id, so the PaymentIntent exists in some account: a 404 means the key in use is not that
      // account's (rotated to another account, test and live mixed up), not that nothing was charged. Failing the
      // order could lose a paid cent; it stays open and this error is the alarm.
      deps.logger.error(
        { ...log, paymentIntent: claimed.paymentIntentId },
        "card order's PaymentIntent not found at Stripe (is STRIPE_SECRET_KEY the account that made it?); left open",
      );
      return 'error';
    }
    if (isOutage(cause)) {
      // Not this order's fault: it is due again on the next pass, not after a longer wait.
      await deps.db
        .update(cardOrders)
        .set({ checkedAt: row.checkedAt, checks: row.checks })
        .where(and(eq(cardOrders.id, row.id), eq(cardOrders.checks, row.checks + 1)));
      deps.logger.warn({ ...log }, 'Stripe did not answer about a card order; next sweep');
      return 'outage';
    }
    deps.logger.error({ ...log, err }, 'card order check failed; left open');
    return 'error';
  }
}

/**
 * An order with no PaymentIntent id: its charge may still have reached Stripe (the answer was lost to a crash or a
 * time-out). Found among the customer's PaymentIntents by metadata.orderId, it is remembered as the webhook would.
 */
async function findPaymentIntentId(
  deps: TCardDeps,
  stripe: TStripeSettings,
  row: TCardOrderRow,
): Promise<string | null> {
  const customer = await findCustomerId(deps, row.accountId);
  // No customer: no charge was ever made for the account.
  if (!customer) return null;
  const since = Math.floor(row.createdAt.getTime() / 1000) - LOOKBACK_S;
  const found = await callStripe(deps, 'paymentIntents.list', async () => {
    for await (const pi of stripe.client.paymentIntents.list({
      customer,
      created: { gte: since },
      limit: 100,
    }))
      if (pi.metadata?.orderId === row.id) return pi;
    return null;
  });
  if (!found) return null;
  await deps.db
    .update(cardOrders)
    .set({ paymentIntentId: found.id })
    .where(and(eq(cardOrders.id, row.id), isNull(cardOrders.paymentIntentId)));
  return found.id;
}

function outcomeOf(order: TCardOrderRow): TCheck {
  if (order.status === 'failed') return 'failed';
  return isSettledStatus(order.status) ? 'settled' : 'open';
}

function stripeError(err: unknown): { type?: string; code?: string } {
  return typeof err === 'object' && err !== null ? (err as { type?: string; code?: string }) : {};
}

function isMissing(err: unknown): boolean {
  const e = stripeError(err);
  return e.type === 'StripeInvalidRequestError' && e.code === 'resource_missing';
}

/** Stripe down, unreachable or throttling: nothing about this order. */
function isOutage(err: unknown): boolean {
  const { type } = stripeError(err);
  return (
    type === 'StripeConnectionError' || type === 'StripeAPIError' || type === 'StripeRateLimitError'
  );
}
