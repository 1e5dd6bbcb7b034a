/** The totals of the period as a row of figures. */
import type { TReportCompositeInfo } from '@rpc/contract';
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';

export type TUsageTotalsProps = {
  totals: TReportCompositeInfo;
  formatNumber: (n: number) => string;
};

export function UsageTotals({ totals, formatNumber }: TUsageTotalsProps) {
  const { t } = useTranslation('statistic');
  const items = [
    { key: 'requests', title: t('totals.requests'), value: formatNumber(totals.requests) },
    { key: 'ru', title: t('totals.ru'), value: formatNumber(totals.ru) },
    { key: 'errors', title: t('totals.errors'), value: formatNumber(totals.errors) },
    {
      key: 'latency',
      title: t('totals.avgLatency'),
      value:
        totals.avgLatencyMs === null
          ? '-'
          : t('totals.latencyValue', { value: formatNumber(Math.round(totals.avgLatencyMs)) }),
    },
    { key: 'keys', title: t('totals.activeKeys'), value: formatNumber(totals.activeKeys) },
    {
      key: 'networks',
      title: t('totals.activeNetworks'),
      value: formatNumber(totals.activeNetworks),
    },
  ];
  return (
    <section aria-label={t('totals.label')}>
      <Row gutter={[12, 12]}>
        {items.map((item) => (
          <Col key={item.key} xs={12} md={8} xl={4}>
            <Card size="small">
              <Statistic title={item.title} value={item.value} />
            </Card>
          </Col>
        ))}
      </Row>
    </section>
  );
}
