/**
 * Where a card order stands, in one polite live region that is always on screen, so a screen reader hears each
 * change: authenticating, processing, then paid, failed with the reason, paid but credited to the wallet instead,
 * or still processing after the wait. What a paid order did (a package, a top-up, a node) is the caller's words.
 */
import type { TCardOrder } from '@rpc/contract';
import { Alert, Flex, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { failureReason } from './follow-card-order';
import type { TCardOrderState } from './use-card-order';

export type TCardOrderWords = {
  /** a paid order, in the words of what it bought */
  succeeded: (order: TCardOrder) => string;
  /** a paid order that could not be applied (a top-up's credit is its success) */
  credited: (order: TCardOrder) => { type: 'success' | 'warning'; text: string };
  /** still processing after the wait; by default "you will get a notice" */
  timedOut?: (order: TCardOrder) => string;
};

type TSettledMessage = { type: 'success' | 'warning' | 'info' | 'error'; text: string };

export function CardOrderProgress({
  state,
  words,
}: {
  state: TCardOrderState;
  words: TCardOrderWords;
}) {
  const { t } = useTranslation('cards');

  const message = (): TSettledMessage | null => {
    switch (state.phase) {
      case 'idle':
      case 'authenticating':
      case 'processing':
        return null;
      case 'succeeded':
        return { type: 'success', text: words.succeeded(state.order) };
      case 'credited':
        return words.credited(state.order);
      case 'timedOut':
        return { type: 'info', text: words.timedOut?.(state.order) ?? t('order.timedOut') };
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
