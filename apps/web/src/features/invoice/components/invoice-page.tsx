/**
 * /invoice/{code} (SPEC §2; no guard, no session): the invoice behind a public code as a printable document with
 * its PDF, or a clear "this link does not work" for a code that is unknown, mistyped or revoked.
 */
import { invoicePdfPath } from '@rpc/contract';
import { Alert, Button, Flex, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { InvoiceDocument } from '../../../components/invoice-document';
import { LinkButton } from '../../../components/link-button';
import { useLocale } from '../../../lib/i18n';
import { isDeadLinkError, useInvoiceByCode } from '../api/get-invoice-by-code';
import './invoice-page.css';

export function InvoicePage() {
  const { t } = useTranslation('invoice');
  const { lang } = useLocale();
  const code = (useParams().code ?? '').trim();
  const invoice = useInvoiceByCode(code);

  if (invoice.isLoading) {
    return (
      <div role="status" aria-label={t('view.loading')} className="invoice-page">
        <Skeleton active paragraph={{ rows: 10 }} />
      </div>
    );
  }
  if (!invoice.data) {
    if (isDeadLinkError(invoice.error)) {
      return (
        <Result
          status="404"
          title={<h1 className="invoice-page-title">{t('view.notFoundTitle')}</h1>}
          subTitle={t('view.notFound')}
          extra={<LinkButton to="/">{t('view.home')}</LinkButton>}
        />
      );
    }
    return (
      <Alert
        type="error"
        showIcon
        message={t('view.loadFailed')}
        action={<Button onClick={() => void invoice.refetch()}>{t('view.retry')}</Button>}
      />
    );
  }

  return (
    <div className="invoice-page">
      <h1 className="invoice-page-heading">
        {t('view.title')} {invoice.data.number}
      </h1>
      <Flex gap={8} justify="flex-end" wrap className="invoice-page-actions">
        <Button onClick={() => window.print()}>{t('view.print')}</Button>
        <Button type="primary" href={invoicePdfPath(code, lang)} download>
          {t('view.download')}
        </Button>
      </Flex>
      <InvoiceDocument invoice={invoice.data} />
    </div>
  );
}
