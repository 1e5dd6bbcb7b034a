/** "Usage by API key" and "Usage by network": requests, RUs, errors and RU share, paged as SPEC §9 says. */
import type { TUsageByApikeyRow, TUsageByNetworkRow } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Table, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT, tablePagination } from '../../../lib/table-pagination';
import { namedTable } from './named-table';

type TRow = TUsageByApikeyRow | TUsageByNetworkRow;

export type TUsageTableProps = {
  kind: 'apikey' | 'network';
  rows: readonly TRow[];
  isLoading: boolean;
  formatNumber: (n: number) => string;
  formatPercent: (share: number) => string;
};

function rowKey(row: TRow): string {
  return 'keyId' in row ? row.keyId : row.chain;
}

export function UsageTable({
  kind,
  rows,
  isLoading,
  formatNumber,
  formatPercent,
}: TUsageTableProps) {
  const { t } = useTranslation('statistic');
  const [paging, setPaging] = useState({ page: 1, pageSize: PAGE_SIZE_DEFAULT });
  const title = kind === 'apikey' ? t('byKey.title') : t('byNetwork.title');
  const components = useMemo(() => namedTable(title), [title]);

  const columns: TableColumnsType<TRow> = [
    {
      key: 'name',
      title: kind === 'apikey' ? t('table.apiKey') : t('table.network'),
      dataIndex: 'name',
      render: (name: string, row) =>
        'deleted' in row && row.deleted ? (
          <>
            {name} <Tag>{t('deleted')}</Tag>
          </>
        ) : (
          name
        ),
    },
    {
      key: 'requests',
      title: t('table.requests'),
      dataIndex: 'requests',
      align: 'right',
      render: (n: number) => formatNumber(n),
    },
    {
      key: 'ru',
      title: t('table.ru'),
      dataIndex: 'ru',
      align: 'right',
      render: (n: number) => formatNumber(n),
    },
    {
      key: 'errors',
      title: t('table.errors'),
      dataIndex: 'errors',
      align: 'right',
      render: (n: number) => formatNumber(n),
    },
    {
      key: 'share',
      title: t('table.share'),
      dataIndex: 'ruShare',
      align: 'right',
      render: (share: number) => formatPercent(share),
    },
  ];

  // A new answer with fewer rows must not leave the table on a page that no longer exists.
  const lastPage = Math.max(1, Math.ceil(rows.length / paging.pageSize));
  return (
    <Table<TRow>
      rowKey={rowKey}
      size="middle"
      columns={columns}
      dataSource={rows as TRow[]}
      loading={isLoading}
      components={components}
      scroll={{ x: 'max-content' }}
      pagination={tablePagination({
        current: Math.min(paging.page, lastPage),
        pageSize: paging.pageSize,
        total: rows.length,
        totalText: (total) => t('table.total', { count: total }),
        onChange: (page, pageSize) =>
          setPaging((p) => ({ page: pageSize === p.pageSize ? page : 1, pageSize })),
      })}
    />
  );
}
