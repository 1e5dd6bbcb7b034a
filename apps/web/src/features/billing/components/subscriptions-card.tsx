/**
 * "Auto-renewals" on /rpc/billings (hub_getSubscriptions): each package that renews itself, its price, when, and
 * what pays (wallet or a card). Switch a renewal to a card (with no card saved: save one for that package first,
 * hub_createAutoRenewStripeSetup) or back to the wallet, or cancel it (asked first).
 */
import type { TResult } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Button, Card, Empty, Flex, Popconfirm, Table, Typography, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createAutoRenewCardSetup } from '../api/create-auto-renew-card-setup';
import { useSubscriptions } from '../api/get-subscriptions';
import { useSetAutoRenew } from '../api/set-auto-renew';
import { useSetAutoRenewByCard } from '../api/set-auto-renew-by-card';
import { useBillingFormat } from '../hooks/use-billing-format';
import { useCardPayments } from '../hooks/use-card-payments';
import { useCardText } from '../hooks/use-card-text';
import { AddCardModal } from './add-card-modal';
import { ErrorState, LoadingState } from './query-state';

type TSubscription = TResult<'hub_getSubscriptions'>['list'][number];

export function SubscriptionsCard() {
  const { t } = useTranslation('cards');
  const format = useBillingFormat();
  const text = useCardText();
  const subscriptions = useSubscriptions();
  const payments = useCardPayments();
  const byCard = useSetAutoRenewByCard();
  const setAutoRenew = useSetAutoRenew();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [addingFor, setAddingFor] = useState<TSubscription | null>(null);
  const hasUsableCard = payments.status === 'on' && payments.cards.some((c) => !c.isExpired);

  const run = async (sub: TSubscription, action: () => Promise<unknown>, done: string) => {
    setBusyId(sub.packageId);
    try {
      await action();
      void message.success(done);
    } catch {
      // the request client has shown why
    } finally {
      setBusyId(null);
    }
  };

  const onToCard = (sub: TSubscription) => {
    if (!hasUsableCard) {
      setAddingFor(sub);
      return;
    }
    const name = format.text(sub.name);
    void run(
      sub,
      () => byCard.mutateAsync({ packageId: sub.packageId, byCard: true }),
      t('subscriptions.toCardDone', { name }),
    );
  };

  const onToWallet = (sub: TSubscription) =>
    run(
      sub,
      () => byCard.mutateAsync({ packageId: sub.packageId, byCard: false }),
      t('subscriptions.toWalletDone', { name: format.text(sub.name) }),
    );

  const onCancel = (sub: TSubscription) =>
    run(
      sub,
      () => setAutoRenew.mutateAsync({ packageId: sub.packageId, autoRenew: false }),
      t('subscriptions.cancelled', { name: format.text(sub.name) }),
    );

  /** The card is saved for this package's renewals; pin it, so the renewal is by card even before a webhook. */
  const onSavedForRenewal = async (sub: TSubscription, cardId: string | null) => {
    const name = format.text(sub.name);
    try {
      await byCard.mutateAsync({
        packageId: sub.packageId,
        byCard: true,
        ...(cardId ? { cardId } : {}),
      });
      void message.success(t('addCard.savedForRenewal', { name }));
    } catch {
      // the request client has shown why; the card itself is saved
    }
    setAddingFor(null);
  };

  const columns: TableColumnsType<TSubscription> = [
    { key: 'name', title: t('subscriptions.name'), render: (_v, s) => format.text(s.name) },
    {
      key: 'price',
      title: t('subscriptions.price'),
      align: 'right',
      render: (_v, s) => format.money(s.priceCents),
    },
    {
      key: 'renewsAt',
      title: t('subscriptions.renewsAt'),
      render: (_v, s) =>
        s.renewsAt === null ? t('subscriptions.renewsWhenUsed') : format.date(s.renewsAt),
    },
    {
      key: 'paidBy',
      title: t('subscriptions.paidBy'),
      render: (_v, s) =>
        s.channel === 'wallet'
          ? t('subscriptions.wallet')
          : s.card
            ? text.label(s.card)
            : t('subscriptions.cardMissing'),
    },
    {
      key: 'actions',
      title: t('subscriptions.actions'),
      render: (_v, s) => {
        const name = format.text(s.name);
        const isBusy = busyId === s.packageId;
        return (
          <Flex gap={8} wrap>
            {s.channel === 'card' ? (
              <Button
                size="small"
                disabled={busyId !== null}
                loading={isBusy && byCard.isPending}
                aria-label={t('subscriptions.toWalletLabel', { name })}
                onClick={() => void onToWallet(s)}
              >
                {t('subscriptions.toWallet')}
              </Button>
            ) : payments.status === 'on' ? (
              <Button
                size="small"
                disabled={busyId !== null}
                loading={isBusy && byCard.isPending}
                aria-label={t('subscriptions.toCardLabel', { name })}
                onClick={() => onToCard(s)}
              >
                {t('subscriptions.toCard')}
              </Button>
            ) : null}
            <Popconfirm
              title={t('subscriptions.cancelTitle', { name })}
              description={t('subscriptions.cancelDescription')}
              okText={t('subscriptions.cancelOk')}
              okButtonProps={{ danger: true }}
              cancelText={t('subscriptions.keep')}
              onConfirm={() => onCancel(s)}
            >
              <Button
                size="small"
                danger
                disabled={busyId !== null && !isBusy}
                loading={isBusy && setAutoRenew.isPending}
                aria-label={t('subscriptions.cancelLabel', { name })}
              >
                {t('subscriptions.cancel')}
              </Button>
            </Popconfirm>
          </Flex>
        );
      },
    },
  ];

  const list = subscriptions.data?.list;
  return (
    <Card
      title={
        <h2 id="subscriptions-title" className="billing-card-title">
          {t('subscriptions.title')}
        </h2>
      }
      aria-labelledby="subscriptions-title"
      role="region"
    >
      {subscriptions.isLoading ? (
        <LoadingState label={t('subscriptions.loading')} rows={2} />
      ) : !list ? (
        <ErrorState
          message={t('subscriptions.loadFailed')}
          onRetry={() => void subscriptions.refetch()}
        />
      ) : list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('subscriptions.empty')} />
      ) : (
        <>
          {payments.status === 'off' ? (
            <Typography.Paragraph type="secondary">{t('notConfigured')}</Typography.Paragraph>
          ) : null}
          <Table<TSubscription>
            rowKey="packageId"
            size="small"
            columns={columns}
            dataSource={list}
            pagination={false}
            scroll={{ x: 'max-content' }}
          />
        </>
      )}
      {addingFor && payments.status === 'on' ? (
        <AddCardModal
          publishableKey={payments.publishableKey}
          title={t('addCard.titleForRenewal', { name: format.text(addingFor.name) })}
          createSetup={() => createAutoRenewCardSetup(addingFor.packageId)}
          onSaved={(cardId) => onSavedForRenewal(addingFor, cardId)}
          onClose={() => setAddingFor(null)}
        />
      ) : null}
    </Card>
  );
}
