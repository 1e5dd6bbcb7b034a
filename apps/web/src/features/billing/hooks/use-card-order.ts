/**
 * The one order flow of card payments (a package bought by card, a wallet top-up by card): authenticate with
 * Stripe.js when the order asks for it, poll until it settles, refresh the wallet when it has. The flow stops when
 * the component that started it unmounts (the order itself still settles on the server).
 */
import type { TCardOrder } from '@rpc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getCardOrder } from '../api/get-card-order';
import { invalidateWallet } from '../api/wallet-query-key';
import { getStripe } from '../lib/stripe';
import type { TCardOrderOutcome } from '../utils/card-order';
import { followCardOrder } from '../utils/card-order';

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

export function useCardOrder(publishableKey: string | null): TCardOrderFlow {
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
        // A settled order moved money or packages (or may have, when it is still running): refresh the wallet.
        void invalidateWallet(queryClient);
        return outcome;
      } catch (error) {
        if (current.signal.aborted) return null;
        throw error;
      } finally {
        if (controller.current === current) controller.current = null;
      }
    },
    [publishableKey, queryClient],
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
