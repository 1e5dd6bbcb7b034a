/**
 * "Payment cards" on /rpc/billings: the saved cards (brand, last 4, expiry, default, expired), making one the
 * default, removing one (asked first: its renewals move to the default card), and adding one.
 */
import type { TCard } from '@rpc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Popconfirm, Tag, Typography, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createCardSetup } from '../api/create-card-setup';
import { useRemoveCard } from '../api/remove-card';
import { useSetDefaultCard } from '../api/set-default-card';
import { invalidateWallet } from '../api/wallet-query-key';
import { useCardPayments } from '../hooks/use-card-payments';
import { useCardText } from '../hooks/use-card-text';
import { AddCardModal } from './add-card-modal';
import { ErrorState, LoadingState } from './query-state';
import './cards.css';

/** The default card on top; the others in the server's order (newest first). */
function defaultFirst(cards: readonly TCard[]): TCard[] {
  return [...cards].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
}

function SavedCard({ card }: { card: TCard }) {
  const { t } = useTranslation('cards');
  const { t: tb } = useTranslation('billing');
  const text = useCardText();
  const setDefault = useSetDefaultCard();
  const remove = useRemoveCard();
  const label = text.label(card);

  const onMakeDefault = async () => {
    try {
      await setDefault.mutateAsync(card.id);
      void message.success(t('cards.madeDefault', { card: label }));
    } catch {
      // the request client has shown why
    }
  };
  const onRemove = async () => {
    try {
      await remove.mutateAsync(card.id);
      void message.success(t('cards.removed', { card: label }));
    } catch {
      // the request client has shown why
    }
  };

  return (
    <li>
      <Flex gap={8} align="center" justify="space-between" wrap>
        <Flex vertical>
          <Typography.Text strong>{label}</Typography.Text>
          <Typography.Text type="secondary">
            {t('cards.expires', { date: text.expiry(card) })}
          </Typography.Text>
        </Flex>
        <Flex gap={8} align="center" wrap>
          {card.isDefault ? <Tag color="blue">{t('cards.default')}</Tag> : null}
          {card.isExpired ? <Tag color="red">{t('cards.expired')}</Tag> : null}
          {card.isDefault ? null : (
            <Button
              size="small"
              loading={setDefault.isPending}
              disabled={card.isExpired}
              aria-label={t('cards.makeDefaultLabel', { card: label })}
              onClick={() => void onMakeDefault()}
            >
              {t('cards.makeDefault')}
            </Button>
          )}
          <Popconfirm
            title={t('cards.removeTitle', { card: label })}
            description={t('cards.removeDescription')}
            okText={t('cards.remove')}
            okButtonProps={{ danger: true }}
            cancelText={tb('cancel')}
            onConfirm={() => onRemove()}
          >
            <Button
              size="small"
              danger
              loading={remove.isPending}
              aria-label={t('cards.removeLabel', { card: label })}
            >
              {t('cards.remove')}
            </Button>
          </Popconfirm>
        </Flex>
      </Flex>
    </li>
  );
}

export function PaymentCardsCard() {
  const { t } = useTranslation('cards');
  const payments = useCardPayments();
  const queryClient = useQueryClient();
  const [isAdding, setAdding] = useState(false);

  const onSaved = async () => {
    await invalidateWallet(queryClient);
    setAdding(false);
    void message.success(t('addCard.saved'));
  };

  return (
    <Card
      title={
        <h2 id="payment-cards-title" className="billing-card-title">
          {t('cards.title')}
        </h2>
      }
      extra={
        payments.status === 'on' ? (
          <Button onClick={() => setAdding(true)}>{t('cards.add')}</Button>
        ) : null
      }
      aria-labelledby="payment-cards-title"
      role="region"
    >
      {payments.status === 'loading' ? (
        <LoadingState label={t('cards.loading')} rows={2} />
      ) : payments.status === 'off' ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notConfigured')} />
      ) : payments.status === 'error' ? (
        <ErrorState message={t('cards.loadFailed')} onRetry={payments.retry} />
      ) : payments.cards.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('cards.empty')} />
      ) : (
        <ul className="billing-card-list" aria-label={t('cards.list')}>
          {defaultFirst(payments.cards).map((card) => (
            <SavedCard key={card.id} card={card} />
          ))}
        </ul>
      )}
      {isAdding && payments.status === 'on' ? (
        <AddCardModal
          publishableKey={payments.publishableKey}
          createSetup={createCardSetup}
          onSaved={onSaved}
          onClose={() => setAdding(false)}
        />
      ) : null}
    </Card>
  );
}
