/**
 * Whether card payments can be used here and now, from the two places that say so: the public config's Stripe
 * publishable key (needed to load Stripe.js) and the card list's isConfigured. Either one saying no, or a 10801,
 * is "not configured": the card areas say so and Stripe.js is never loaded.
 */
import type { TCard } from '@rpc/contract';
import { ERROR_CODES } from '@rpc/contract';
import { useQuery } from '@tanstack/react-query';
import { getPublicConfigQueryOptions } from '../../../lib/get-public-config';
import { RpcCallError } from '../../../lib/rpc-client';
import { useCards } from '../api/get-cards';

export type TCardPayments =
  | { status: 'loading' }
  | { status: 'error'; retry: () => void }
  | { status: 'off' }
  | { status: 'on'; publishableKey: string; cards: TCard[]; isFetching: boolean };

export function useCardPayments(): TCardPayments {
  const config = useQuery(getPublicConfigQueryOptions());
  const publishableKey = config.data?.stripePublishableKey ?? null;
  const cards = useCards({ isEnabled: publishableKey !== null });
  const isOff =
    (config.isSuccess && publishableKey === null) ||
    cards.data?.isConfigured === false ||
    (cards.error instanceof RpcCallError && cards.error.code === ERROR_CODES.CARDS_NOT_CONFIGURED);

  if (isOff) return { status: 'off' };
  if (config.isError) return { status: 'error', retry: () => void config.refetch() };
  if (cards.data && publishableKey !== null) {
    return {
      status: 'on',
      publishableKey,
      cards: cards.data.list,
      isFetching: cards.isFetching,
    };
  }
  if (cards.isError) return { status: 'error', retry: () => void cards.refetch() };
  return { status: 'loading' };
}
