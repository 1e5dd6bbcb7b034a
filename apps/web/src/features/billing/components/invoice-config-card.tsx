/** The billing details card: loading and error states around the form, which restarts from each save. */
import { Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useInvoiceConfig } from '../api/get-invoice-config';
import { InvoiceConfigForm } from './invoice-config-form';
import { ErrorState, LoadingState } from './query-state';

export function InvoiceConfigCard() {
  const { t } = useTranslation('invoice');
  const query = useInvoiceConfig();
  const config = query.data;
  return (
    <Card
      title={
        <h2 id="invoice-config-title" className="billing-card-title">
          {t('config.title')}
        </h2>
      }
      aria-labelledby="invoice-config-title"
      role="region"
    >
      {query.isLoading ? (
        <LoadingState label={t('config.loading')} rows={5} />
      ) : !config ? (
        <ErrorState message={t('config.loadFailed')} onRetry={() => void query.refetch()} />
      ) : (
        <Flex vertical gap={12}>
          <Typography.Text type="secondary">{t('config.intro')}</Typography.Text>
          <InvoiceConfigForm key={config.updatedAt ?? 'new'} config={config} />
        </Flex>
      )}
    </Card>
  );
}
