/**
 * Following a node's card order (hub_buyDnNodeByCard, hub_renewDnNodeByCard) with the shared card-order flow
 * (lib/card-order): Stripe.js authentication when the card asks for it, polling until it settles, the node list and
 * the wallet refreshed after, and the progress in a node's words (ordered, renewed, or credited to the wallet).
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TCardOrderWords } from '../../../lib/card-order/card-order-progress';
import type { TCardOrderFlow } from '../../../lib/card-order/use-card-order';
import { useCardOrder } from '../../../lib/card-order/use-card-order';
import { invalidateAfterPayment } from '../api/dn-query-keys';
import { useDnFormat } from './use-dn-format';

export type TNodeCardOrder = { flow: TCardOrderFlow; words: TCardOrderWords };

/** @param nodeName the node renewed, in words; none when buying (the node is named only once it is paid) */
export function useNodeCardOrder(publishableKey: string | null, nodeName?: string): TNodeCardOrder {
  const { t } = useTranslation('dedicated-node');
  const format = useDnFormat();
  const flow = useCardOrder(publishableKey, invalidateAfterPayment);
  const words = useMemo<TCardOrderWords>(
    () => ({
      succeeded: (order) => {
        const amount = format.money(order.amountCents);
        return order.kind === 'dn_renew'
          ? t('card.renewed', { amount, node: nodeName ?? '' })
          : t('card.ordered', { amount });
      },
      credited: (order) => ({
        type: 'warning',
        text: t(order.kind === 'dn_renew' ? 'card.creditedRenew' : 'card.creditedBuy', {
          amount: format.money(order.amountCents),
        }),
      }),
      timedOut: () => t('card.timedOut'),
    }),
    [t, format, nodeName],
  );
  return { flow, words };
}
