/**
 * Spend per month over the last 12 months, from the purchase report's day buckets in the browser's zone (bars,
 * ECharts). To assistive technology the chart is an image named by its title and described by the total and the
 * busiest month.
 */
import { Card, Empty } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VISUALLY_HIDDEN_STYLE } from '../../../components/visually-hidden';
import { browserTimeZone } from '../../../lib/format-date-time';
import type { TChartOption } from '../../../lib/use-echarts';
import { useECharts } from '../../../lib/use-echarts';
import { usePurchaseReport } from '../api/get-purchase-report';
import { useBillingFormat } from '../hooks/use-billing-format';
import { formatMoney, sumCents } from '../utils/money';
import type { TSpendPoint } from '../utils/spend';
import { spendByMonth, spendRange } from '../utils/spend';
import { ErrorState, LoadingState } from './query-state';

export function buildSpendOption(points: readonly TSpendPoint[], money: (cents: number) => string) {
  return {
    grid: { left: 8, right: 8, top: 16, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (value: unknown) => money(Math.round(Number(value) * 100)),
    },
    xAxis: { type: 'category', data: points.map((p) => p.month) },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => String(v) } },
    // ECharts draws numbers: dollars for the axis only; every text on screen is formatted from cents.
    series: [
      { type: 'bar', data: points.map((p) => p.cents / 100), itemStyle: { color: '#1677ff' } },
    ],
  } satisfies TChartOption;
}

function Chart({ points }: { points: TSpendPoint[] }) {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const option = useMemo(() => buildSpendOption(points, format.money), [points, format.money]);
  const ref = useECharts<HTMLDivElement>(option);
  const total = sumCents(points.map((p) => p.cents));
  const top = points.reduce((best, p) => (p.cents > best.cents ? p : best), points[0]!);
  return (
    <>
      <div
        ref={ref}
        role="img"
        aria-label={t('spend.chartLabel')}
        aria-describedby="spend-summary"
        style={{ width: '100%', height: 240 }}
      />
      <p id="spend-summary" style={VISUALLY_HIDDEN_STYLE}>
        {t('spend.summary', {
          total: formatMoney(total, format.lang),
          month: top.month,
          amount: formatMoney(top.cents, format.lang),
        })}
      </p>
    </>
  );
}

export function SpendChart() {
  const { t } = useTranslation('billing');
  // Fixed when the chart mounts, so the query key stays put while the page is open.
  const [params] = useState(() => ({
    ...spendRange(Date.now()),
    bucket: 'day' as const,
    timeZone: browserTimeZone(),
  }));
  const purchases = usePurchaseReport(params);
  const points = useMemo(
    () => (purchases.data ? spendByMonth(purchases.data, Date.now()) : []),
    [purchases.data],
  );
  const hasSpend = points.some((p) => p.cents > 0);

  return (
    <Card
      title={
        <h2 id="spend-title" className="billing-card-title">
          {t('spend.title')}
        </h2>
      }
      aria-labelledby="spend-title"
      role="region"
    >
      {purchases.isLoading ? (
        <LoadingState label={t('spend.loading')} />
      ) : !purchases.data ? (
        <ErrorState message={t('spend.loadFailed')} onRetry={() => void purchases.refetch()} />
      ) : hasSpend ? (
        <Chart points={points} />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('spend.empty')} />
      )}
    </Card>
  );
}
