/** What a paid card order did, in billing's words: a package bought, or the wallet topped up. */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TCardOrderWords } from '../../../lib/card-order/card-order-progress';
import { useBillingFormat } from './use-billing-format';

export function useBillingCardOrderWords(): TCardOrderWords {
  const { t } = useTranslation('cards');
  const format = useBillingFormat();
  return useMemo(() => {
    const succeeded: TCardOrderWords['succeeded'] = (order) => {
      const amount = format.money(order.amountCents);
      return order.kind === 'top_up'
        ? t('order.succeededTopUp', { amount })
        : t('order.succeededPackage', {
            amount,
            name: order.skuName ? format.text(order.skuName) : '',
          });
    };
    return {
      succeeded,
      // A top-up that settles as credited has done what it was for.
      credited: (order) =>
        order.kind === 'top_up'
          ? { type: 'success', text: succeeded(order) }
          : {
              type: 'warning',
              text: t('order.credited', { amount: format.money(order.amountCents) }),
            },
    };
  }, [t, format]);
}
