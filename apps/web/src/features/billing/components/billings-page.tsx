/**
 * /rpc/billings: the wallet (balance, arrears, RUs, tier, active packages), buying a package, spend over time and
 * the purchase, package and deposit histories; saved cards and auto-renewals; top-up and invoices are one click
 * away (SPEC §2).
 */
import { Alert, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { useCan } from '../../../lib/acting-account';
import { BuyPackageSection } from './buy-package-section';
import { HistoryTabs } from './history-tabs';
import { PaymentCardsCard } from './payment-cards-card';
import { SpendChart } from './spend-chart';
import { SpendLimitsCard } from './spend-limits-card';
import { SubscriptionsCard } from './subscriptions-card';
import { WalletOverviewCard } from './wallet-overview-card';
import './billing.css';

export function BillingsPage() {
  const { t } = useTranslation('billing');
  // A team role without the billing permission (viewer) sees the balance only: buying, cards and histories
  // are the billing permission's (the server refuses them with 10302).
  const canBill = useCan('billing');
  return (
    <section aria-labelledby="page-title">
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={1} id="page-title" style={{ fontSize: 24, margin: 0 }}>
          {t('list.title')}
        </Typography.Title>
        {canBill ? (
          <Flex gap={8} wrap>
            <LinkButton to="/rpc/billings/charge" type="primary">
              {t('links.charge')}
            </LinkButton>
            <LinkButton to="/rpc/billings/invoice">{t('links.invoices')}</LinkButton>
          </Flex>
        ) : null}
      </Flex>
      <Flex vertical gap={16}>
        <WalletOverviewCard />
        {canBill ? (
          <>
            <BuyPackageSection />
            <SubscriptionsCard />
            <PaymentCardsCard />
            <SpendChart />
            <SpendLimitsCard />
            <HistoryTabs />
          </>
        ) : (
          <Alert
            type="info"
            showIcon
            message={t('readOnly.title')}
            description={t('readOnly.description')}
          />
        )}
      </Flex>
    </section>
  );
}
