/**
 * Runs the card order sweep (services/cards/sweep-card-orders.ts) every minute in the console role, when cards are
 * configured. Like the package sweep, a plain unref'd timer, one pass at a time; each order is claimed before Stripe
 * is asked and settling is idempotent, so two processes sweeping at once neither ask twice nor credit twice.
 */
import type { TDeps } from '../rpc/context';
import { sweepCardOrders } from '../services/cards/sweep-card-orders';

export const CARD_ORDER_SWEEP_EVERY_MS = 60_000;

export function startCardOrderSweep(
  deps: TDeps,
  everyMs = CARD_ORDER_SWEEP_EVERY_MS,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const pass = () => {
    if (running) return;
    running = sweepCardOrders(deps)
      .then((r) => {
        if (r.settled + r.failed + r.errors > 0) deps.logger.info(r, 'card orders swept');
      })
      .catch((err: unknown) => deps.logger.error({ err }, 'card order sweep failed'))
      .finally(() => {
        running = undefined;
      });
  };
  pass();
  const timer = setInterval(pass, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
