/**
 * Runs the card order sweep (services/cards/sweep-card-orders.ts) every minute in the console role, when cards are
 * configured. One pass at a time (run-every.ts); each order is claimed before Stripe
 * is asked and settling is idempotent, so two processes sweeping at once neither ask twice nor credit twice.
 */
import type { TDeps } from '../rpc/context';
import { sweepCardOrders } from '../services/cards/sweep-card-orders';
import { runEvery } from './run-every';

export const CARD_ORDER_SWEEP_EVERY_MS = 60_000;

export function startCardOrderSweep(
  deps: TDeps,
  everyMs = CARD_ORDER_SWEEP_EVERY_MS,
): () => Promise<void> {
  return runEvery(deps.logger, 'card order sweep', everyMs, async () => {
    const r = await sweepCardOrders(deps);
    if (r.settled + r.failed + r.errors > 0) deps.logger.info(r, 'card orders swept');
  });
}
