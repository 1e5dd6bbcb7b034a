/**
 * The acting account's invoices over a SPEC §9 paged table: number, date, item, amount, payment method, and per
 * invoice view, PDF download and its public link. hub_getInvoice* calls show no popup (SPEC §8): failures are
 * said here.
 */
import type { TInvoiceSummary } from '@rpc/contract';
import { PAYMENT_CHANNEL_FILTERS } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Button, Flex, Tag, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TPaging } from '../../../components/paged-table';
import { PagedTable } from '../../../components/paged-table';
import { PAGE_SIZE_DEFAULT } from '../../../lib/table-pagination';
import { downloadInvoicePdf } from '../api/get-invoice-pdf';
import type { TInvoicesParams } from '../api/get-invoices';
import { useInvoices } from '../api/get-invoices';
import { useBillingFormat } from '../hooks/use-billing-format';
import { FilterSelect } from './filter-select';
import { InvoiceLinkModal } from './invoice-link-modal';
import { InvoiceViewModal } from './invoice-view-modal';

export function InvoicesTable() {
  const { t } = useTranslation('invoice');
  const format = useBillingFormat();
  const [channel, setChannel] = useState<TInvoicesParams['channel']>('all');
  const [paging, setPaging] = useState<TPaging>({ page: 1, perPage: PAGE_SIZE_DEFAULT });
  const invoices = useInvoices({ ...paging, channel, sort: 'desc' });
  const [viewing, setViewing] = useState<TInvoiceSummary | null>(null);
  const [sharing, setSharing] = useState<TInvoiceSummary | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);

  const onDownload = async (invoice: TInvoiceSummary) => {
    setDownloading(invoice.id);
    try {
      await downloadInvoicePdf(invoice.id, format.lang);
    } catch {
      void message.error(t('list.downloadFailed'));
    } finally {
      setDownloading(null);
    }
  };

  const columns: TableColumnsType<TInvoiceSummary> = [
    { key: 'number', title: t('list.number'), render: (_v, i) => <code>{i.number}</code> },
    { key: 'date', title: t('list.date'), render: (_v, i) => format.date(i.issuedAt) },
    {
      key: 'item',
      title: t('list.item'),
      render: (_v, i) => (
        <span>
          {format.text(i.itemName)}
          {i.publicLinkCreatedAt !== null ? (
            <Tag style={{ marginInlineStart: 8 }}>{t('list.linkActive')}</Tag>
          ) : null}
        </span>
      ),
    },
    {
      key: 'amount',
      title: t('list.amount'),
      align: 'right',
      render: (_v, i) => format.money(i.totalCents),
    },
    {
      key: 'channel',
      title: t('list.channel'),
      render: (_v, i) => t(`document.channels.${i.channel}`),
    },
    {
      key: 'actions',
      title: t('list.actions'),
      render: (_v, i) => (
        <Flex gap={4} wrap>
          <Button
            size="small"
            aria-label={t('list.viewLabel', { number: i.number })}
            onClick={() => setViewing(i)}
          >
            {t('list.view')}
          </Button>
          <Button
            size="small"
            aria-label={t('list.downloadLabel', { number: i.number })}
            loading={downloading === i.id}
            onClick={() => void onDownload(i)}
          >
            {t('list.download')}
          </Button>
          <Button
            size="small"
            aria-label={t('list.shareLabel', { number: i.number })}
            onClick={() => setSharing(i)}
          >
            {t('list.share')}
          </Button>
        </Flex>
      ),
    },
  ];

  return (
    <Flex vertical gap={12}>
      <Flex gap={12} wrap className="billing-filters">
        <FilterSelect
          label={t('list.channel')}
          value={channel}
          options={PAYMENT_CHANNEL_FILTERS.map((value) => ({
            value,
            label: value === 'all' ? t('list.allChannels') : t(`document.channels.${value}`),
          }))}
          onChange={(value) => {
            setChannel(value);
            setPaging((p) => ({ ...p, page: 1 }));
          }}
        />
      </Flex>
      <PagedTable<TInvoiceSummary>
        label={t('list.tableLabel')}
        rowKey="id"
        columns={columns}
        rows={invoices.data?.list}
        total={invoices.data?.total ?? 0}
        paging={paging}
        onPagingChange={setPaging}
        isLoading={invoices.isLoading}
        isFetching={invoices.isFetching}
        isError={invoices.isError}
        onRetry={() => void invoices.refetch()}
        emptyText={t('list.empty')}
        totalText={(total) => t('list.total', { count: total })}
      />
      <InvoiceViewModal
        invoice={viewing}
        onClose={() => setViewing(null)}
        onDownload={(i) => void onDownload(i)}
        isDownloading={viewing !== null && downloading === viewing.id}
      />
      <InvoiceLinkModal invoice={sharing} onClose={() => setSharing(null)} />
    </Flex>
  );
}
