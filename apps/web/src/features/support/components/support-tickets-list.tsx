/** "My tickets": the acting account's tickets, newest first, SPEC §9 paging. */
import type { TSupportTicket, TTicketStatus } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Tag } from 'antd';
import { PaperClipOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable, type TPaging } from '../../../components/paged-table';
import { formatDateTime } from '../../../lib/format-date-time';
import { PAGE_SIZE_DEFAULT } from '../../../lib/table-pagination';
import { useSupportTickets } from '../api/get-support-tickets';

const STATUS_COLOR: Record<TTicketStatus, string> = {
  open: 'processing',
  answered: 'success',
  closed: 'default',
};

export function SupportTicketsList({ isOpen }: { isOpen: boolean }) {
  const { t } = useTranslation('support');
  const [paging, setPaging] = useState<TPaging>({ page: 1, perPage: PAGE_SIZE_DEFAULT });
  const query = useSupportTickets(paging, isOpen);
  const columns: TableColumnsType<TSupportTicket> = [
    { title: t('list.number'), dataIndex: 'number', key: 'number' },
    {
      title: t('list.subject'),
      dataIndex: 'subject',
      key: 'subject',
      render: (subject: string, row) => (
        <span>
          {subject}{' '}
          {row.hasAttachment && (
            <PaperClipOutlined aria-label={t('list.hasAttachment')} role="img" />
          )}
        </span>
      ),
    },
    {
      title: t('list.category'),
      dataIndex: 'category',
      key: 'category',
      render: (c: string) => t(`categories.${c}`),
    },
    {
      title: t('list.status'),
      dataIndex: 'status',
      key: 'status',
      render: (s: TTicketStatus) => <Tag color={STATUS_COLOR[s]}>{t(`status.${s}`)}</Tag>,
    },
    {
      title: t('list.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      render: (ms: number) => formatDateTime(ms),
    },
  ];
  return (
    <PagedTable<TSupportTicket>
      label={t('list.label')}
      rowKey="ticketId"
      columns={columns}
      rows={query.data?.list}
      total={query.data?.total ?? 0}
      paging={paging}
      onPagingChange={setPaging}
      isLoading={query.isLoading}
      isFetching={query.isFetching}
      isError={query.isError}
      onRetry={() => void query.refetch()}
      emptyText={t('list.empty')}
    />
  );
}
