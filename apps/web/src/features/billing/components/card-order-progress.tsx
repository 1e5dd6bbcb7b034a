/**
 * Where a card order stands, in one polite live region that is always on screen, so a screen reader hears each
 * change: authenticating, processing, then paid (package or wallet), failed with the reason, paid but credited to
 * the wallet instead, or still processing after the wait.
 */
import { Alert, Flex, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TCardOrderState } from '../hooks/use-card-order';
import { useBillingFormat } from '../hooks/use-billing-format';
import { failureReason } from '../utils/card-order';

export function CardOrderProgress({ state }: { state: TCardOrderState }) {
  const { t } = useTranslation('cards');
  const format = useBillingFormat();

  const message = (): { type: 'success' | 'warning' | 'info' | 'error'; text: string } | null => {
    if (
      state.phase === 'idle' ||
      state.phase === 'authenticating' ||
      state.phase === 'processing'
    ) {
      return null;
    }
    const { order } = state;
    const amount = format.money(order.amountCents);
    const paid =
      order.kind === 'top_up'
        ? t('order.succeededTopUp', { amount })
        : t('order.succeededPackage', {
            amount,
            name: order.skuName ? format.text(order.skuName) : '',
          });
    switch (state.phase) {
      case 'succeeded':
        return { type: 'success', text: paid };
      case 'credited':
        // A top-up that settles as credited has done what it was for.
        return order.kind === 'top_up'
          ? { type: 'success', text: paid }
          : { type: 'warning', text: t('order.credited', { amount }) };
      case 'timedOut':
        return { type: 'info', text: t('order.timedOut') };
      case 'failed':
        return {
          type: 'error',
          text: t('order.failed', { reason: t(`failure.${failureReason(state.failureCode)}`) }),
        };
    }
  };
  const settled = message();

  return (
    <div role="status" aria-label={t('order.region')}>
      {state.phase === 'authenticating' || state.phase === 'processing' ? (
        <Flex gap={8} align="center">
          <Spin size="small" />
          <Typography.Text>{t(`order.${state.phase}`)}</Typography.Text>
        </Flex>
      ) : settled ? (
        // role none: the region around it already announces it (no second, assertive announcement)
        <Alert role="none" type={settled.type} showIcon message={settled.text} />
      ) : null}
    </div>
  );
}
