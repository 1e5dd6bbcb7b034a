/** One invoice of the account in a dialog, as the public page shows it, with its PDF a click away. */
import type { TInvoiceSummary } from '@rpc/contract';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { InvoiceDocument } from '../../../components/invoice-document';
import { useInvoiceView } from '../api/get-invoice-view';
import { ErrorState, LoadingState } from './query-state';

export function InvoiceViewModal({
  invoice,
  onClose,
  onDownload,
  isDownloading,
}: {
  invoice: TInvoiceSummary | null;
  onClose: () => void;
  onDownload: (invoice: TInvoiceSummary) => void;
  isDownloading: boolean;
}) {
  const { t } = useTranslation('invoice');
  const view = useInvoiceView(invoice?.id ?? null);

  return (
    <Modal
      open={invoice !== null}
      title={invoice ? t('modal.title', { number: invoice.number }) : null}
      onCancel={onClose}
      width={820}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>
          {t('modal.close')}
        </Button>,
        <Button
          key="pdf"
          type="primary"
          loading={isDownloading}
          onClick={() => invoice && onDownload(invoice)}
        >
          {t('view.download')}
        </Button>,
      ]}
    >
      {view.isLoading ? (
        <LoadingState label={t('view.loading')} rows={8} />
      ) : view.data ? (
        <InvoiceDocument invoice={view.data} />
      ) : (
        <ErrorState message={t('modal.loadFailed')} onRetry={() => void view.refetch()} />
      )}
    </Modal>
  );
}
