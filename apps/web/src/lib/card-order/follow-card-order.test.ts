/** Following a card order (lib/card-order/follow-card-order.ts) with a fake clock: no React, no Stripe, no network. */
import type { TCardOrder } from '@rpc/contract';
import { describe, expect, it, vi } from 'vitest';
import {
  CARD_POLL_MS,
  CARD_POLL_TIMEOUT_MS,
  failureReason,
  followCardOrder,
} from './follow-card-order';

function makeOrder(patch: Partial<TCardOrder> = {}): TCardOrder {
  return {
    orderId: '00000000-0000-4000-8000-000000000001',
    kind: 'package',
    status: 'pending',
    isSettled: false,
    amountCents: 4900,
    amount: '49.00',
    skuId: 'growth',
    skuName: { en: 'Growth', zh: '成长版' },
    clientSecret: null,
    purchaseId: null,
    nodeId: null,
    failureCode: null,
    card: { brand: 'visa', last4: '4242' },
    createdAt: 0,
    settledAt: null,
    ...patch,
  };
}

describe('following a card order', () => {
  /** A clock that moves only when the flow sleeps. */
  function fakeClock() {
    let now = 0;
    return {
      now: () => now,
      sleep: async (ms: number) => {
        now += ms;
      },
    };
  }

  it('gives up after about two minutes, polling every 1.5 s, and tolerates a failed poll', async () => {
    const clock = fakeClock();
    let asked = 0;
    const outcome = await followCardOrder(makeOrder(), {
      ...clock,
      signal: new AbortController().signal,
      poll: async () => {
        asked += 1;
        if (asked === 3) throw new Error('network');
        return makeOrder();
      },
      authenticate: async () => ({ errorCode: null }),
    });
    expect(outcome.phase).toBe('timedOut');
    expect(asked).toBe(CARD_POLL_TIMEOUT_MS / CARD_POLL_MS);
  });

  it('authenticates once per client secret and stops when aborted', async () => {
    const controller = new AbortController();
    const authenticate = vi.fn(async () => ({ errorCode: null }));
    const pending = followCardOrder(
      makeOrder({ status: 'requires_action', clientSecret: 'pi_1_secret_a' }),
      {
        ...fakeClock(),
        signal: controller.signal,
        poll: async () => {
          controller.abort();
          return makeOrder({ status: 'requires_action', clientSecret: 'pi_1_secret_a' });
        },
        authenticate,
      },
    );
    await expect(pending).rejects.toBeDefined();
    expect(authenticate).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['card_declined', 'card_declined'],
    ['generic_decline', 'card_declined'],
    ['payment_intent_authentication_failure', 'authentication_required'],
    [null, 'generic'],
    ['lost_card', 'generic'],
  ])('explains %s as %s', (code, reason) => {
    expect(failureReason(code)).toBe(reason);
  });
});
