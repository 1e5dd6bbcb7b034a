/**
 * /rpc/billings/invoice: the acting account's invoices (view, PDF, public link) and the billing details new
 * invoices are issued with (SPEC §2, §7 Wallet invoice methods).
 */
import { Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { BillingRoleGate } from './billing-role-gate';
import { InvoiceConfigCard } from './invoice-config-card';
import { InvoicesTable } from './invoices-table';
import './billing.css';

export function BillingInvoicePage() {
  const { t } = useTranslation(['invoice', 'billing']);
  return (
    <BillingRoleGate title={t('billing:invoice.title')}>
      <InvoicePage />
    </BillingRoleGate>
  );
}

function InvoicePage() {
  const { t } = useTranslation(['invoice', 'billing']);
  return (
    <section aria-labelledby="page-title">
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={1} id="page-title" style={{ fontSize: 24, margin: 0 }}>
          {t('billing:invoice.title')}
        </Typography.Title>
        <LinkButton to="/rpc/billings">{t('billing:links.back')}</LinkButton>
      </Flex>
      <Flex vertical gap={16}>
        {/* the table inside is the region named "Invoices", under the page's own heading */}
        <Card>
          <Flex vertical gap={12}>
            <Typography.Text type="secondary">{t('invoice:list.intro')}</Typography.Text>
            <InvoicesTable />
          </Flex>
        </Card>
        <InvoiceConfigCard />
      </Flex>
    </section>
  );
}
