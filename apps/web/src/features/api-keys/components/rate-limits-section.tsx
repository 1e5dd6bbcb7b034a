/** "Rate limits & RU costs": the account's tier, every tier compared, the RU table and the cost calculator. */
import { Alert, Button, Card, Descriptions, Flex, Skeleton, Table, Tag } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { TTier } from '../../../lib/limit-info';
import { fetchLimitInfo, useLimitInfo } from '../../../lib/limit-info';
import { useRuTable } from '../api/get-ru-table';
import { useSupportChains } from '../api/get-support-chains';
import { CostCalculator } from './cost-calculator';
import { RuPriceTable } from './ru-price-table';

export function RateLimitsSection({ formatNumber }: { formatNumber: (n: number) => string }) {
  const { t } = useTranslation('api-keys');
  const { info, fetchedAt, isLoading } = useLimitInfo();
  const ruTable = useRuTable();
  const chains = useSupportChains();

  // Shown from the local copy at once, refreshed once per page life (sign-in also loads it, SPEC §4).
  useEffect(() => {
    if (fetchedAt === 0) void fetchLimitInfo();
  }, [fetchedAt]);

  const tiers = [...(info?.tiers ?? [])].sort((a, b) => a.order - b.order);
  const rules = ruTable.data?.rules;

  return (
    <Flex vertical gap={16}>
      <Card
        title={<h2 style={{ margin: 0, fontSize: 16 }}>{t('limits.currentTitle')}</h2>}
        extra={
          <Button onClick={() => void fetchLimitInfo()} loading={isLoading}>
            {t('limits.refresh')}
          </Button>
        }
      >
        {info ? (
          <Descriptions
            column={{ xs: 1, sm: 2, md: 3 }}
            items={[
              {
                key: 'tier',
                label: t('limits.tier'),
                children: info.currentLimitRateTitleView || info.currentLimitRateLevelView,
              },
              { key: 'req', label: t('limits.reqPerSec'), children: formatNumber(info.reqPerSec) },
              { key: 'ru', label: t('limits.ruPerSec'), children: formatNumber(info.ruPerSec) },
              {
                key: 'concurrency',
                label: t('limits.concurrency'),
                children: formatNumber(info.concurrency),
              },
              {
                key: 'balance',
                label: t('limits.ruBalance'),
                children: formatNumber(info.ruBalance),
              },
            ]}
          />
        ) : isLoading || fetchedAt === 0 ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : (
          <Alert type="warning" showIcon message={t('limits.unavailable')} />
        )}
      </Card>

      <Card title={<h2 style={{ margin: 0, fontSize: 16 }}>{t('limits.tiersTitle')}</h2>}>
        <Table<TTier>
          rowKey="level"
          size="small"
          pagination={false}
          dataSource={tiers}
          loading={!info && isLoading}
          columns={[
            {
              key: 'name',
              title: t('limits.tier'),
              render: (_v, tier) => (
                <span>
                  {tier.name}{' '}
                  {info && tier.level === info.currentLimitRateLevel ? (
                    <Tag color="blue">{t('limits.current')}</Tag>
                  ) : null}
                </span>
              ),
            },
            {
              key: 'req',
              title: t('limits.reqPerSec'),
              align: 'right',
              render: (_v, tier) => formatNumber(tier.reqPerSec),
            },
            {
              key: 'ru',
              title: t('limits.ruPerSec'),
              align: 'right',
              render: (_v, tier) => formatNumber(tier.ruPerSec),
            },
            {
              key: 'concurrency',
              title: t('limits.concurrency'),
              align: 'right',
              render: (_v, tier) => formatNumber(tier.concurrency),
            },
          ]}
        />
      </Card>

      <Card title={<h2 style={{ margin: 0, fontSize: 16 }}>{t('ruTable.title')}</h2>}>
        {rules ? (
          <ul style={{ marginTop: 0 }}>
            <li>{t('ruTable.rules.unlisted', { ru: rules.unlistedRuPer250Bytes })}</li>
            <li>{t('ruTable.rules.archive', { percent: rules.archiveSurchargePercent })}</li>
            <li>
              {t('ruTable.rules.getLogs', {
                percent: rules.getLogsSurchargePercentPer200KbOver200Kb,
              })}
            </li>
            <li>
              {t('ruTable.rules.response', { percent: rules.responseSurchargePercentPerMbOver1Mb })}
            </li>
            <li>{t('ruTable.rules.notCharged')}</li>
            <li>{t('ruTable.rules.multiplier')}</li>
          </ul>
        ) : null}
        <RuPriceTable
          methods={ruTable.data?.methods ?? []}
          isLoading={ruTable.isLoading}
          formatNumber={formatNumber}
        />
      </Card>

      <Card title={<h2 style={{ margin: 0, fontSize: 16 }}>{t('calculator.title')}</h2>}>
        {ruTable.data ? (
          <CostCalculator
            ruTable={ruTable.data}
            tiers={tiers}
            chains={chains.data?.list ?? []}
            formatNumber={formatNumber}
          />
        ) : (
          <Skeleton active paragraph={{ rows: 3 }} />
        )}
      </Card>
    </Flex>
  );
}
