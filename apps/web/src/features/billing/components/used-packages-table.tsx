/** Packages used: every package with RUs used and left, status and expiry, by type, status and order. */
import type { TPackage } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Flex, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TPaging } from '../../../components/paged-table';
import { PagedTable } from '../../../components/paged-table';
import { PAGE_SIZE_DEFAULT } from '../../../lib/table-pagination';
import type { TUsedPackagesParams } from '../api/get-used-packages';
import { useUsedPackages } from '../api/get-used-packages';
import { useBillingFormat } from '../hooks/use-billing-format';
import { FilterSelect } from './filter-select';
import { packageTypeOptions, sortOptions, statusOptions } from './history-filters';

type TFilters = Pick<TUsedPackagesParams, 'packageType' | 'status' | 'sort'>;

const STATUS_COLOR: Record<TPackage['status'], string | undefined> = {
  active: 'green',
  exhausted: 'orange',
  expired: undefined,
  replaced: undefined,
};

export function UsedPackagesTable() {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const [filters, setFilters] = useState<TFilters>({
    packageType: 'all',
    status: 'all',
    sort: 'desc',
  });
  const [paging, setPaging] = useState<TPaging>({ page: 1, perPage: PAGE_SIZE_DEFAULT });
  const used = useUsedPackages({ ...filters, ...paging });
  const setFilter = (patch: Partial<TFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const columns: TableColumnsType<TPackage> = [
    {
      key: 'package',
      title: t('table.package'),
      render: (_v, p) => (
        <span>
          {format.text(p.name)} <Tag>{t(`packageType.${p.type}`)}</Tag>
        </span>
      ),
    },
    {
      key: 'status',
      title: t('table.status'),
      render: (_v, p) => <Tag color={STATUS_COLOR[p.status]}>{t(`status.${p.status}`)}</Tag>,
    },
    {
      key: 'used',
      title: t('table.ruUsed'),
      align: 'right',
      render: (_v, p) => format.number(p.ruUsed),
    },
    {
      key: 'left',
      title: t('table.ruLeft'),
      align: 'right',
      render: (_v, p) => format.number(p.ruLeft),
    },
    {
      key: 'total',
      title: t('table.ruTotal'),
      align: 'right',
      render: (_v, p) => format.number(p.ruTotal),
    },
    { key: 'starts', title: t('table.starts'), render: (_v, p) => format.date(p.startsAt) },
    {
      key: 'expires',
      title: t('table.expires'),
      render: (_v, p) => (p.expiresAt === null ? t('packages.never') : format.date(p.expiresAt)),
    },
    {
      key: 'autoRenew',
      title: t('packages.autoRenew'),
      render: (_v, p) => (p.autoRenew ? t('autoRenew.yes') : t('autoRenew.no')),
    },
  ];

  return (
    <Flex vertical gap={12}>
      <Flex gap={12} wrap className="billing-filters">
        <FilterSelect
          label={t('filter.packageType')}
          value={filters.packageType}
          options={packageTypeOptions(t)}
          onChange={(packageType) => setFilter({ packageType })}
        />
        <FilterSelect
          label={t('filter.status')}
          value={filters.status}
          options={statusOptions(t)}
          onChange={(status) => setFilter({ status })}
        />
        <FilterSelect
          label={t('filter.sort')}
          value={filters.sort}
          options={sortOptions(t)}
          onChange={(sort) => setFilter({ sort })}
        />
      </Flex>
      <PagedTable<TPackage>
        label={t('history.used')}
        rowKey="id"
        columns={columns}
        rows={used.data?.list}
        total={used.data?.total ?? 0}
        paging={paging}
        onPagingChange={setPaging}
        isLoading={used.isLoading}
        isFetching={used.isFetching}
        isError={used.isError}
        onRetry={() => void used.refetch()}
        emptyText={t('history.usedEmpty')}
        totalText={(total) => t('history.usedTotal', { count: total })}
      />
    </Flex>
  );
}
