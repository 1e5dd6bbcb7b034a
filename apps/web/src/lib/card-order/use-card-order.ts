/**
 * The one order flow of card payments (a package or a node bought by card, a node renewed, a wallet top-up):
 * authenticate with Stripe.js when the order asks for it, poll until it settles, then let the caller refresh what
 * the order changed. The flow stops when the component that started it unmounts (the order itself still settles on
 * the server).
 */
import type { TCardOrder } from '@rpc/contract';
import type { QueryClient } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getStripe } from '../stripe';
import type { TCardOrderOutcome } from './follow-card-order';
import { followCardOrder } from './follow-card-order';
import { getCardOrder } from './get-card-order';

export type TCardOrderState =
  | { phase: 'idle' }
  | { phase: 'authenticating' | 'processing'; order: TCardOrder }
  | TCardOrderOutcome;

export type TCardOrderFlow = {
  state: TCardOrderState;
  isRunning: boolean;
  /** follows the order to its end; resolves with how it ended (null when stopped by unmount or reset) */
  follow: (order: TCardOrder) => Promise<TCardOrderOutcome | null>;
  reset: () => void;
};

/** Stripe.js's confirmCardPayment, as a code: null when the buyer authenticated. */
async function authenticateWithStripe(
  publishableKey: string | null,
  clientSecret: string,
): Promise<{ errorCode: string | null }> {
  if (!publishableKey) return { errorCode: 'cards_not_configured' };
  try {
    const stripe = await getStripe(publishableKey);
    if (!stripe) return { errorCode: 'stripe_unavailable' };
    const result = await stripe.confirmCardPayment(clientSecret);
    if (result.error) {
      return { errorCode: result.error.code ?? result.error.type ?? 'authentication_required' };
    }
    return { errorCode: null };
  } catch {
    return { errorCode: 'stripe_unavailable' };
  }
}

/**
 * @param onSettled what the caller refreshes once the order settled (or may have, when it is still running): the
 * wallet for a package or a top-up, the node list and the wallet for a node. A stable function.
 */
export function useCardOrder(
  publishableKey: string | null,
  onSettled: (queryClient: QueryClient) => Promise<unknown>,
): TCardOrderFlow {
  const queryClient = useQueryClient();
  const [state, setState] = useState<TCardOrderState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);

  useEffect(
    () => () => {
      controller.current?.abort();
    },
    [],
  );

  const follow = useCallback(
    async (order: TCardOrder) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      try {
        const outcome = await followCardOrder(order, {
          signal: current.signal,
          poll: (orderId, signal) => getCardOrder(orderId, signal),
          authenticate: (secret) => authenticateWithStripe(publishableKey, secret),
          onProgress: (latest, isAuthenticating) => {
            if (current.signal.aborted || latest.isSettled) return;
            setState({ phase: isAuthenticating ? 'authenticating' : 'processing', order: latest });
          },
        });
        if (current.signal.aborted) return null;
        setState(outcome);
        void onSettled(queryClient);
        return outcome;
      } catch (error) {
        if (current.signal.aborted) return null;
        throw error;
      } finally {
        if (controller.current === current) controller.current = null;
      }
    },
    [publishableKey, queryClient, onSettled],
  );

  const reset = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setState({ phase: 'idle' });
  }, []);

  return {
    state,
    isRunning: state.phase === 'authenticating' || state.phase === 'processing',
    follow,
    reset,
  };
}
