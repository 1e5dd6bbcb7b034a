/**
 * Whether a node may be paid by card here, decided as the billing screens decide it: the public config's Stripe
 * publishable key (which Stripe.js needs to authenticate a payment) and the card list's isConfigured must both say
 * yes. Roles without the billing permission never ask for the card list (the server refuses them). Any doubt
 * (loading, an error) leaves only the wallet.
 */
import type { TCard } from '@rpc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getPublicConfigQueryOptions } from '../../../lib/get-public-config';
import { callRpc } from '../../../lib/rpc-client';
import { DN_QUERY_KEY, useDnScope } from './dn-query-keys';

export type TNodeCardPayments =
  { status: 'off' | 'loading' } | { status: 'on'; cards: TCard[]; publishableKey: string };

export function getCardsQueryOptions(scope: string) {
  return queryOptions({
    queryKey: [...DN_QUERY_KEY, scope, 'cards'],
    queryFn: ({ signal }) =>
      // Without cards the wallet still pays: a failure here is no reason for a popup.
      callRpc('hub_getCreditCardList', {}, { signal, hideError: true }),
  });
}

export function useNodeCardPayments(canBill: boolean): TNodeCardPayments {
  const config = useQuery({ ...getPublicConfigQueryOptions(), enabled: canBill });
  const publishableKey = config.data?.stripePublishableKey ?? null;
  const cards = useQuery({
    ...getCardsQueryOptions(useDnScope()),
    enabled: canBill && publishableKey !== null,
  });
  if (!canBill || config.isError || cards.isError) return { status: 'off' };
  if (config.isSuccess && publishableKey === null) return { status: 'off' };
  if (cards.data && publishableKey !== null) {
    return cards.data.isConfigured
      ? { status: 'on', cards: cards.data.list, publishableKey }
      : { status: 'off' };
  }
  return { status: 'loading' };
}
