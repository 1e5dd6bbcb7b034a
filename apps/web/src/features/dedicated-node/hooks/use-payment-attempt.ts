/**
 * The attempt side of paying for a node, shared by the purchase wizard and the renew dialog (the pattern of the
 * billing purchase dialog): one idempotency key per attempt; after a lost answer the very same attempt (key, terms,
 * way to pay) is all that can be sent; after a definite refusal the next try is a new attempt with a new key.
 */
import { useCallback, useRef, useState } from 'react';
import type { TPaymentFailure } from '../utils/payment-attempt';
import { newIdempotencyKey } from '../../../lib/payment-attempt';
import { paymentFailureOf } from '../utils/payment-attempt';

export type TPayOutcome<R> =
  { isPaid: true; answer: R } | { isPaid: false; failure: TPaymentFailure | null };

export type TPaymentAttempt<T> = {
  /** the attempt whose answer was lost; paying again sends exactly this */
  unknownAttempt: T | null;
  failure: TPaymentFailure | null;
  isPaying: boolean;
  /**
   * Sends the unknown attempt again, or else the one `build` makes with this attempt's key. A null from `build`
   * (nothing to pay yet) sends nothing. Any answer ends the attempt: a card order answered (even one declined
   * later) is that attempt's, so paying again is a new one with a new key.
   */
  pay: <R>(
    build: (idempotencyKey: string) => T | null,
    send: (attempt: T) => Promise<R>,
  ) => Promise<TPayOutcome<R>>;
};

export function usePaymentAttempt<T>(): TPaymentAttempt<T> {
  const [attemptKey, setAttemptKey] = useState(newIdempotencyKey);
  const [unknownAttempt, setUnknownAttempt] = useState<T | null>(null);
  const [failure, setFailure] = useState<TPaymentFailure | null>(null);
  const [isPaying, setPaying] = useState(false);
  // A second click while the first is on its way must not send a second request.
  const inFlight = useRef(false);

  const fail = useCallback((why: TPaymentFailure) => {
    setUnknownAttempt(null);
    setAttemptKey(newIdempotencyKey());
    setFailure(why);
  }, []);

  const pay = useCallback(
    async <R>(
      build: (idempotencyKey: string) => T | null,
      send: (attempt: T) => Promise<R>,
    ): Promise<TPayOutcome<R>> => {
      if (inFlight.current) return { isPaid: false, failure: null };
      const attempt = unknownAttempt ?? build(attemptKey);
      if (attempt === null) return { isPaid: false, failure: null };
      inFlight.current = true;
      setPaying(true);
      setFailure(null);
      try {
        const answer = await send(attempt);
        setUnknownAttempt(null);
        setAttemptKey(newIdempotencyKey());
        return { isPaid: true, answer };
      } catch (error) {
        const why = paymentFailureOf(error);
        if (why === 'unknown') {
          // The same attempt: the same key and terms, so paying again pays at most once.
          setUnknownAttempt(attempt);
          setFailure('unknown');
        } else {
          fail(why);
        }
        return { isPaid: false, failure: why };
      } finally {
        inFlight.current = false;
        setPaying(false);
      }
    },
    [attemptKey, unknownAttempt, fail],
  );

  return { unknownAttempt, failure, isPaying, pay };
}
