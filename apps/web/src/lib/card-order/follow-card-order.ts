/**
 * Following one card order until it settles (SPEC §7 hub_polling): authenticate in the browser when the card asks
 * for it (3-D Secure, once per client secret), then ask again every CARD_POLL_MS until isSettled, giving up after
 * CARD_POLL_TIMEOUT_MS (the order still settles on the server, and a notice says how). Free of React and Stripe, so
 * the timing is tested with a fake clock.
 */
import type { TCardOrder } from '@rpc/contract';

export const CARD_POLL_MS = 1500;
export const CARD_POLL_TIMEOUT_MS = 120_000;

export type TCardOrderOutcome =
  | { phase: 'succeeded' | 'credited' | 'timedOut'; order: TCardOrder }
  | { phase: 'failed'; order: TCardOrder; failureCode: string | null };

export type TFollowCardOrderDeps = {
  /** hub_polling; a throw (network, timeout) is asked again on the next round */
  poll: (orderId: string, signal: AbortSignal) => Promise<TCardOrder>;
  /** Stripe.js confirmCardPayment; answers Stripe's error code, or null when the buyer authenticated */
  authenticate: (clientSecret: string) => Promise<{ errorCode: string | null }>;
  /** every order seen, and whether the buyer is being asked to authenticate right now */
  onProgress?: (order: TCardOrder, isAuthenticating: boolean) => void;
  signal: AbortSignal;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
  intervalMs?: number;
  timeoutMs?: number;
};

/** Rejects with the signal's reason when aborted, so a closed dialog stops polling at once. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function settled(order: TCardOrder): TCardOrderOutcome {
  if (order.status === 'succeeded') return { phase: 'succeeded', order };
  if (order.status === 'credited') return { phase: 'credited', order };
  return { phase: 'failed', order, failureCode: order.failureCode };
}

export async function followCardOrder(
  first: TCardOrder,
  deps: TFollowCardOrderDeps,
): Promise<TCardOrderOutcome> {
  const sleep = deps.sleep ?? abortableSleep;
  const now = deps.now ?? Date.now;
  const intervalMs = deps.intervalMs ?? CARD_POLL_MS;
  const deadline = now() + (deps.timeoutMs ?? CARD_POLL_TIMEOUT_MS);
  const authenticated = new Set<string>();
  const poll = async (order: TCardOrder): Promise<TCardOrder> => {
    try {
      return await deps.poll(order.orderId, deps.signal);
    } catch (error) {
      if (deps.signal.aborted) throw error;
      return order;
    }
  };

  let order = first;
  for (;;) {
    deps.signal.throwIfAborted();
    deps.onProgress?.(order, false);
    if (order.isSettled) return settled(order);
    const secret = order.status === 'requires_action' ? order.clientSecret : null;
    if (secret && !authenticated.has(secret)) {
      authenticated.add(secret);
      deps.onProgress?.(order, true);
      const { errorCode } = await deps.authenticate(secret);
      deps.signal.throwIfAborted();
      order = await poll(order);
      // Authentication refused or abandoned: nothing is charged. The server may not know yet; say so now.
      if (errorCode && !order.isSettled) return { phase: 'failed', order, failureCode: errorCode };
      continue;
    }
    if (now() >= deadline) return { phase: 'timedOut', order };
    await sleep(intervalMs, deps.signal);
    order = await poll(order);
  }
}

/** The failure codes explained in words; anything else gets the generic text. */
export const EXPLAINED_FAILURES = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'authentication_required',
] as const;

/** Stripe's decline and error codes to the ones the console explains. */
export function failureReason(
  code: string | null,
): (typeof EXPLAINED_FAILURES)[number] | 'generic' {
  switch (code) {
    case 'card_declined':
    case 'generic_decline':
    case 'do_not_honor':
      return 'card_declined';
    case 'insufficient_funds':
      return 'insufficient_funds';
    case 'expired_card':
      return 'expired_card';
    case 'authentication_required':
    case 'payment_intent_authentication_failure':
    case 'setup_intent_authentication_failure':
      return 'authentication_required';
    default:
      return 'generic';
  }
}
