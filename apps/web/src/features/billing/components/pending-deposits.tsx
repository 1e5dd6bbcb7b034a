/**
 * Deposits seen on chain and waiting for confirmations, asked again every 10 s while any wait. Hiding one asks
 * first and says it is still credited if it confirms. A deposit that leaves the list refreshes the wallet.
 */
import type { TDeposit } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Button, Card, Empty, Popconfirm, Progress, Table, Typography, message } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { PENDING_POLL_MS, usePendingDeposits } from '../api/get-pending-deposits';
import { useHidePendingDeposit } from '../api/hide-pending-deposit';
import { invalidateWallet } from '../api/wallet-query-key';
import { useBillingFormat } from '../hooks/use-billing-format';
import { shortHash } from './deposits-table';
import { ErrorState, LoadingState } from './query-state';

export function PendingDeposits() {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const pending = usePendingDeposits();
  const hide = useHidePendingDeposit();
  const queryClient = useQueryClient();
  const list = pending.data?.list;

  // A deposit gone from the list (credited, or orphaned) may have moved the balance.
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!list) return;
    const ids = new Set(list.map((d) => d.id));
    const previous = seen.current;
    seen.current = ids;
    if (previous && [...previous].some((id) => !ids.has(id))) void invalidateWallet(queryClient);
  }, [list, queryClient]);

  const onHide = async (deposit: TDeposit) => {
    // Remember it as gone on purpose, so hiding does not count as a credit.
    seen.current?.delete(deposit.id);
    try {
      await hide.mutateAsync(deposit.id);
      void message.success(t('pending.hidden'));
    } catch {
      // hub_delWalletDepositPending shows no popup (SPEC §8): say it here.
      void message.error(t('pending.hideFailed'));
    }
  };

  const columns: TableColumnsType<TDeposit> = [
    { key: 'time', title: t('table.time'), render: (_v, d) => format.date(d.createdAt) },
    {
      key: 'amount',
      title: t('table.amount'),
      align: 'right',
      render: (_v, d) => `${d.coinAmount} ${d.coin}`,
    },
    { key: 'chain', title: t('table.network'), dataIndex: 'chain' },
    {
      key: 'confirmations',
      title: t('table.confirmations'),
      render: (_v, d) => (
        <div style={{ minWidth: 120 }}>
          {t('pending.confirmations', {
            count: d.confirmations,
            required: d.requiredConfirmations,
          })}
          <Progress
            percent={Math.min(100, Math.floor((d.confirmations * 100) / d.requiredConfirmations))}
            size="small"
            showInfo={false}
            aria-hidden
          />
        </div>
      ),
    },
    {
      key: 'tx',
      title: t('table.txHash'),
      render: (_v, d) => (
        <Typography.Text className="billing-address" title={d.txHash}>
          {shortHash(d.txHash)}
        </Typography.Text>
      ),
    },
    {
      key: 'actions',
      title: t('table.actions'),
      render: (_v, d) => (
        <Popconfirm
          title={t('pending.hideTitle')}
          description={t('pending.hideDescription')}
          okText={t('pending.hide')}
          cancelText={t('cancel')}
          onConfirm={() => onHide(d)}
        >
          <Button
            type="link"
            size="small"
            aria-label={t('pending.hideLabel', { hash: shortHash(d.txHash) })}
          >
            {t('pending.hide')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Card
      title={
        <h2 id="pending-title" className="billing-card-title">
          {t('pending.title')}
        </h2>
      }
      aria-labelledby="pending-title"
      role="region"
    >
      {pending.isLoading ? (
        <LoadingState label={t('pending.loading')} />
      ) : !list ? (
        <ErrorState message={t('pending.loadFailed')} onRetry={() => void pending.refetch()} />
      ) : list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('pending.empty')} />
      ) : (
        <>
          <Typography.Paragraph type="secondary" role="status">
            {t('pending.polling', { seconds: PENDING_POLL_MS / 1000 })}
          </Typography.Paragraph>
          <Table<TDeposit>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={list}
            pagination={false}
            scroll={{ x: 'max-content' }}
          />
        </>
      )}
    </Card>
  );
}
