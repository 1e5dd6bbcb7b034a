/**
 * Credited deposits by channel and order. A deposit notice flags this list stale (SPEC §4, lib/notices): when
 * it is on screen it reloads at once and clears the flag.
 */
import type { TDeposit } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Flex, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TPaging } from '../../../components/paged-table';
import { PagedTable } from '../../../components/paged-table';
import { clearDepositListFlag, useNotices } from '../../../lib/notices';
import { PAGE_SIZE_DEFAULT } from '../../../lib/table-pagination';
import type { TDepositsParams } from '../api/get-deposits';
import { useDeposits } from '../api/get-deposits';
import { useBillingFormat } from '../hooks/use-billing-format';
import { ExportCsvButton } from './export-csv-button';
import { FilterSelect } from './filter-select';
import { channelOptions, sortOptions } from './history-filters';

type TFilters = Pick<TDepositsParams, 'channel' | 'sort'>;

/** 0x1234…cdef: long hashes stay on one short line; the full hash is the title. */
export function shortHash(hash: string): string {
  return hash.length > 14 ? `${hash.slice(0, 8)}…${hash.slice(-6)}` : hash;
}

export function DepositsTable() {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const [filters, setFilters] = useState<TFilters>({ channel: 'all', sort: 'desc' });
  const [paging, setPaging] = useState<TPaging>({ page: 1, perPage: PAGE_SIZE_DEFAULT });
  const deposits = useDeposits({ ...filters, ...paging });
  const isStale = useNotices((s) => s.isDepositListStale);
  const { refetch } = deposits;

  useEffect(() => {
    if (!isStale) return;
    clearDepositListFlag();
    void refetch();
  }, [isStale, refetch]);

  const setFilter = (patch: Partial<TFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const columns: TableColumnsType<TDeposit> = [
    { key: 'time', title: t('table.time'), render: (_v, d) => format.date(d.createdAt) },
    {
      key: 'amount',
      title: t('table.amount'),
      align: 'right',
      render: (_v, d) => `${d.coinAmount} ${d.coin}`,
    },
    {
      key: 'usd',
      title: t('table.usd'),
      align: 'right',
      render: (_v, d) => format.money(d.usdCents),
    },
    { key: 'chain', title: t('table.network'), dataIndex: 'chain' },
    { key: 'channel', title: t('table.channel'), render: (_v, d) => t(`channel.${d.channel}`) },
    {
      key: 'status',
      title: t('table.status'),
      render: (_v, d) => (
        <Tag color={d.status === 'confirmed' ? 'green' : undefined}>
          {t(`depositStatus.${d.status}`)}
        </Tag>
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
    { key: 'credited', title: t('table.credited'), render: (_v, d) => format.date(d.creditedAt) },
  ];

  return (
    <Flex vertical gap={12}>
      <Flex gap={12} wrap className="billing-filters">
        <FilterSelect
          label={t('filter.channel')}
          value={filters.channel}
          options={channelOptions(t)}
          onChange={(channel) => setFilter({ channel })}
        />
        <FilterSelect
          label={t('filter.sort')}
          value={filters.sort}
          options={sortOptions(t)}
          onChange={(sort) => setFilter({ sort })}
        />
        <ExportCsvButton kind="deposit" filters={filters} />
      </Flex>
      <PagedTable<TDeposit>
        label={t('history.deposits')}
        rowKey="id"
        columns={columns}
        rows={deposits.data?.list}
        total={deposits.data?.total ?? 0}
        paging={paging}
        onPagingChange={setPaging}
        isLoading={deposits.isLoading}
        isFetching={deposits.isFetching}
        isError={deposits.isError}
        onRetry={() => void deposits.refetch()}
        emptyText={t('history.depositsEmpty')}
        totalText={(total) => t('history.depositsTotal', { count: total })}
      />
    </Flex>
  );
}
