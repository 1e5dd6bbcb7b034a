/** The keys table: server paging (SPEC §9 defaults), status, today's usage and the row actions. */
import type { TApiKey } from '@rpc/contract';
import type { TableColumnsType, TablePaginationConfig } from 'antd';
import { Button, Popconfirm, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format-date-time';
import { tablePagination } from '../../../lib/table-pagination';
import { MaskedKey } from './masked-key';

export type TApiKeysTableProps = {
  keys: readonly TApiKey[];
  total: number;
  page: number;
  perPage: number;
  isLoading: boolean;
  formatNumber: (n: number) => string;
  onPageChange: (page: number, perPage: number) => void;
  onOpen: (key: TApiKey) => void;
  onRename: (key: TApiKey) => void;
  onTogglePause: (key: TApiKey) => void;
  onDelete: (key: TApiKey) => Promise<unknown>;
  /** rename, pause and delete are offered (the acting role holds the keys permission) */
  canEdit?: boolean;
};

export function ApiKeysTable(props: TApiKeysTableProps) {
  const { t } = useTranslation('api-keys');
  const { formatNumber } = props;

  const columns: TableColumnsType<TApiKey> = [
    {
      key: 'name',
      title: t('table.name'),
      dataIndex: 'name',
      render: (name: string, key) => (
        <Button type="link" style={{ padding: 0 }} onClick={() => props.onOpen(key)}>
          {name}
        </Button>
      ),
    },
    {
      key: 'key',
      title: t('table.key'),
      dataIndex: 'key',
      render: (value: string) => <MaskedKey value={value} />,
    },
    {
      key: 'status',
      title: t('table.status'),
      dataIndex: 'paused',
      render: (paused: boolean) =>
        paused ? (
          <Tag color="orange">{t('status.paused')}</Tag>
        ) : (
          <Tag color="green">{t('status.active')}</Tag>
        ),
    },
    {
      key: 'requests',
      title: t('table.requestsToday'),
      align: 'right',
      render: (_v, key) => formatNumber(key.today.requests),
    },
    {
      key: 'ru',
      title: t('table.ruToday'),
      align: 'right',
      render: (_v, key) => formatNumber(key.today.ru),
    },
    {
      key: 'created',
      title: t('table.created'),
      dataIndex: 'createdAt',
      render: (createdAt: number) => formatDateTime(createdAt),
    },
    {
      key: 'actions',
      title: t('table.actions'),
      render: (_v, key) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => props.onOpen(key)}>
            {t('actions.details')}
          </Button>
          {props.canEdit === false ? null : (
            <>
              <Button type="link" size="small" onClick={() => props.onRename(key)}>
                {t('actions.rename')}
              </Button>
              <Button type="link" size="small" onClick={() => props.onTogglePause(key)}>
                {key.paused ? t('actions.resume') : t('actions.pause')}
              </Button>
              <Popconfirm
                title={t('delete.title', { name: key.name })}
                description={t('delete.description')}
                okText={t('actions.delete')}
                cancelText={t('actions.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => props.onDelete(key).catch(() => undefined)}
              >
                <Button type="link" size="small" danger>
                  {t('actions.delete')}
                </Button>
              </Popconfirm>
            </>
          )}
        </Space>
      ),
    },
  ];

  const pagination: TablePaginationConfig = tablePagination({
    current: props.page,
    pageSize: props.perPage,
    total: props.total,
    totalText: (total) => t('table.total', { count: total }),
    onChange: (page, perPage) => props.onPageChange(page, perPage),
  });

  return (
    <Table<TApiKey>
      rowKey="keyId"
      columns={columns}
      dataSource={props.keys as TApiKey[]}
      loading={props.isLoading}
      pagination={pagination}
      scroll={{ x: 'max-content' }}
    />
  );
}
