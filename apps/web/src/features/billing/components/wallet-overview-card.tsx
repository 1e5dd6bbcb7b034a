/**
 * The wallet at a glance: balance, arrears, RUs left, tier and pay-as-you-go, then the active packages in the
 * order they are spent, each with its RUs left, expiry and auto-renew switch.
 */
import { Alert, Card, Col, Flex, Row, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { useSkuList } from '../api/get-sku-list';
import { useWalletOverview } from '../api/get-wallet-overview';
import { useBillingFormat } from '../hooks/use-billing-format';
import { ActivePackages } from './active-packages';
import { ErrorState, LoadingState } from './query-state';

export function WalletOverviewCard() {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const overview = useWalletOverview();
  const skus = useSkuList();
  const wallet = overview.data;

  return (
    <Card
      title={
        <h2 id="wallet-title" className="billing-card-title">
          {t('overview.title')}
        </h2>
      }
      aria-labelledby="wallet-title"
      role="region"
    >
      {overview.isLoading ? (
        <LoadingState label={t('overview.loading')} />
      ) : !wallet ? (
        <ErrorState message={t('overview.loadFailed')} onRetry={() => void overview.refetch()} />
      ) : (
        <Flex vertical gap={16}>
          <Row gutter={[16, 16]}>
            <Col xs={12} md={8} xl={4}>
              <Statistic title={t('overview.balance')} value={format.money(wallet.amountCents)} />
            </Col>
            <Col xs={12} md={8} xl={4}>
              <Statistic
                title={t('overview.arrears')}
                value={format.money(wallet.arrearsCents)}
                valueStyle={wallet.arrearsCents > 0 ? { color: '#cf1322' } : undefined}
              />
            </Col>
            <Col xs={12} md={8} xl={5}>
              <Statistic title={t('overview.ruLeft')} value={format.number(wallet.ruLeft)} />
            </Col>
            <Col xs={12} md={8} xl={5}>
              <Statistic
                title={t('overview.tier')}
                valueRender={() => <Tag color="blue">{format.tier(wallet.tier)}</Tag>}
              />
            </Col>
            <Col xs={24} md={8} xl={6}>
              <Statistic
                title={t('overview.payg')}
                valueRender={() =>
                  wallet.isPaygActive ? (
                    <Tag color="green">{t('overview.paygOn')}</Tag>
                  ) : (
                    <Tag>{t('overview.paygOff')}</Tag>
                  )
                }
              />
            </Col>
          </Row>
          {wallet.arrearsCents > 0 ? (
            <Alert
              type="warning"
              showIcon
              message={t('overview.arrearsWarning', { amount: format.money(wallet.arrearsCents) })}
              action={
                <LinkButton to="/rpc/billings/charge" size="small">
                  {t('overview.depositNow')}
                </LinkButton>
              }
            />
          ) : null}
          <Typography.Title level={3} className="billing-subtitle">
            {t('packages.title')}
          </Typography.Title>
          <ActivePackages packages={wallet.packages} skus={skus.data?.list ?? []} />
        </Flex>
      )}
    </Card>
  );
}
