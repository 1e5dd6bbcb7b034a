/**
 * Monthly spend limits: this month's RUs and money against each cap, a notice while a 'stop' limit holds the
 * keys, and the form that sets the caps, the action and the alert thresholds.
 */
import type { TSpendLimits } from '@rpc/contract';
import { Alert, Card, Col, Flex, Progress, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSpendLimits } from '../api/get-spend-limits';
import { useBillingFormat } from '../hooks/use-billing-format';
import { percentUsed } from '../utils/spend-limits';
import { ErrorState, LoadingState } from './query-state';
import { SpendLimitsForm } from './spend-limits-form';

function CapProgress({
  used,
  cap,
  text,
  label,
}: {
  used: number;
  cap: number;
  text: string;
  label: string;
}) {
  const percent = percentUsed(used, cap);
  return (
    <div>
      <Typography.Text type="secondary">{text}</Typography.Text>
      <Progress
        percent={percent}
        size="small"
        status={used >= cap ? 'exception' : 'normal'}
        aria-label={label}
        aria-valuetext={`${text} (${percent}%)`}
      />
    </div>
  );
}

function MonthUsage({ limits }: { limits: TSpendLimits }) {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const { month, monthlyRuCap, monthlyCentsCap } = limits;
  return (
    <Flex vertical gap={8}>
      <Typography.Title level={3} className="billing-subtitle">
        {t('spendLimits.monthTitle', { month: month.key })}
      </Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={12}>
          <Statistic title={t('spendLimits.ruUsed')} value={format.number(month.ruUsed)} />
          {monthlyRuCap !== null ? (
            <CapProgress
              used={month.ruUsed}
              cap={monthlyRuCap}
              text={t('spendLimits.ruOfCap', {
                used: format.number(month.ruUsed),
                cap: format.number(monthlyRuCap),
              })}
              label={t('spendLimits.ruProgress')}
            />
          ) : null}
        </Col>
        <Col xs={24} sm={12}>
          <Statistic title={t('spendLimits.spent')} value={format.money(month.centsSpent)} />
          {monthlyCentsCap !== null ? (
            <CapProgress
              used={month.centsSpent}
              cap={monthlyCentsCap}
              text={t('spendLimits.moneyOfCap', {
                used: format.money(month.centsSpent),
                cap: format.money(monthlyCentsCap),
              })}
              label={t('spendLimits.moneyProgress')}
            />
          ) : null}
        </Col>
      </Row>
      {monthlyRuCap === null && monthlyCentsCap === null ? (
        <Typography.Text type="secondary">{t('spendLimits.noCaps')}</Typography.Text>
      ) : null}
    </Flex>
  );
}

/** The saved settings, so the form starts again from them after a save but not on a refetch of the usage. */
function settingsKey(limits: TSpendLimits): string {
  return [limits.monthlyRuCap, limits.monthlyCentsCap, limits.action, ...limits.alertPercents].join(
    '|',
  );
}

export function SpendLimitsCard() {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const query = useSpendLimits();
  const limits = query.data;

  return (
    <Card
      title={
        <h2 id="spend-limits-title" className="billing-card-title">
          {t('spendLimits.title')}
        </h2>
      }
      aria-labelledby="spend-limits-title"
      role="region"
    >
      {query.isLoading ? (
        <LoadingState label={t('spendLimits.loading')} />
      ) : !limits ? (
        <ErrorState message={t('spendLimits.loadFailed')} onRetry={() => void query.refetch()} />
      ) : (
        <Flex vertical gap={16}>
          {limits.blockedUntil !== null ? (
            <Alert
              type="error"
              showIcon
              message={t('spendLimits.blocked', { date: format.date(limits.blockedUntil) })}
            />
          ) : null}
          <MonthUsage limits={limits} />
          <SpendLimitsForm key={settingsKey(limits)} limits={limits} />
        </Flex>
      )}
    </Card>
  );
}
