/** Purchase history: channel, package type and order filters (SPEC §3) over a SPEC §9 paged table. */
import type { TPurchase } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Flex, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TPaging } from '../../../components/paged-table';
import { PagedTable } from '../../../components/paged-table';
import { PAGE_SIZE_DEFAULT } from '../../../lib/table-pagination';
import type { TPurchasesParams } from '../api/get-purchases';
import { usePurchases } from '../api/get-purchases';
import { useBillingFormat } from '../hooks/use-billing-format';
import { ExportCsvButton } from './export-csv-button';
import { FilterSelect } from './filter-select';
import { channelOptions, packageTypeOptions, sortOptions } from './history-filters';

type TFilters = Pick<TPurchasesParams, 'channel' | 'packageType' | 'sort'>;

export function PurchasesTable() {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const [filters, setFilters] = useState<TFilters>({
    channel: 'all',
    packageType: 'all',
    sort: 'desc',
  });
  const [paging, setPaging] = useState<TPaging>({ page: 1, perPage: PAGE_SIZE_DEFAULT });
  const purchases = usePurchases({ ...filters, ...paging });
  const setFilter = (patch: Partial<TFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const columns: TableColumnsType<TPurchase> = [
    { key: 'time', title: t('table.time'), render: (_v, p) => format.date(p.createdAt) },
    {
      key: 'package',
      title: t('table.package'),
      render: (_v, p) => (
        <span>
          {format.text(p.skuName)} <Tag>{t(`packageType.${p.packageType}`)}</Tag>
        </span>
      ),
    },
    { key: 'channel', title: t('table.channel'), render: (_v, p) => t(`channel.${p.channel}`) },
    { key: 'reason', title: t('table.reason'), render: (_v, p) => t(`reason.${p.reason}`) },
    { key: 'ru', title: t('table.ru'), align: 'right', render: (_v, p) => format.number(p.ru) },
    {
      key: 'price',
      title: t('table.price'),
      align: 'right',
      render: (_v, p) => format.money(p.priceCents),
    },
    {
      key: 'discount',
      title: t('table.discount'),
      align: 'right',
      render: (_v, p) => (p.discountCents > 0 ? `−${format.money(p.discountCents)}` : '-'),
    },
    {
      key: 'paid',
      title: t('table.paid'),
      align: 'right',
      render: (_v, p) => format.money(p.paidCents),
    },
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
          label={t('filter.packageType')}
          value={filters.packageType}
          options={packageTypeOptions(t)}
          onChange={(packageType) => setFilter({ packageType })}
        />
        <FilterSelect
          label={t('filter.sort')}
          value={filters.sort}
          options={sortOptions(t)}
          onChange={(sort) => setFilter({ sort })}
        />
        <ExportCsvButton kind="purchase" filters={filters} />
      </Flex>
      <PagedTable<TPurchase>
        label={t('history.purchases')}
        rowKey="id"
        columns={columns}
        rows={purchases.data?.list}
        total={purchases.data?.total ?? 0}
        paging={paging}
        onPagingChange={setPaging}
        isLoading={purchases.isLoading}
        isFetching={purchases.isFetching}
        isError={purchases.isError}
        onRetry={() => void purchases.refetch()}
        emptyText={t('history.purchasesEmpty')}
        totalText={(total) => t('history.purchasesTotal', { count: total })}
      />
    </Flex>
  );
}
