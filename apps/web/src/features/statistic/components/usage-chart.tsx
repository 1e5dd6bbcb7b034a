/**
 * Usage over time as stacked bars. The chart is an image to assistive technology (role img, named by metric,
 * described by a one-line summary); a Chart | Data table switch shows the numbers behind it instead.
 */
import type { TReportSeriesResult } from '@rpc/contract';
import { BarChartOutlined, TableOutlined } from '@ant-design/icons';
import { Flex, Segmented } from 'antd';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatZonedDateTime } from '../../../lib/format-date-time';
import { useECharts } from '../../../lib/use-echarts';
import { buildUsageChartOption, bucketTotals, seriesName } from '../utils/chart-options';
import type { TMetric } from '../utils/filters';
import { VISUALLY_HIDDEN } from './visually-hidden';

export type TUsageChartProps = {
  result: TReportSeriesResult;
  metric: TMetric;
  formatNumber: (n: number) => string;
};

const cellStyle = { padding: '4px 8px', borderBottom: '1px solid #f0f0f0' } as const;

export function UsageChart({ result, metric, formatNumber }: TUsageChartProps) {
  const { t } = useTranslation('statistic');
  const summaryId = useId();
  const tableId = useId();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const isTableShown = view === 'table';
  const deleted = t('deleted');
  const labels = useMemo(() => ({ deleted, formatNumber }), [deleted, formatNumber]);
  const option = useMemo(() => buildUsageChartOption(result, labels), [result, labels]);
  const ref = useECharts<HTMLDivElement>(option);
  const title = t(`chart.title.${metric}`);
  const totals = useMemo(() => bucketTotals(result), [result]);

  return (
    <Flex vertical gap={8}>
      <Flex justify="flex-end">
        <Segmented<'chart' | 'table'>
          aria-label={t('chart.view')}
          aria-controls={tableId}
          value={view}
          onChange={setView}
          options={[
            {
              value: 'chart',
              label: t('chart.viewChart'),
              icon: <BarChartOutlined aria-hidden />,
            },
            {
              value: 'table',
              label: t('chart.viewTable'),
              icon: <TableOutlined aria-hidden />,
            },
          ]}
        />
      </Flex>
      <div
        ref={ref}
        role="img"
        aria-label={title}
        aria-describedby={summaryId}
        data-bucket={result.bucket}
        data-points={result.buckets.length}
        data-total={result.total}
        // Kept drawn while the table shows, so switching back is instant.
        style={{ width: '100%', height: 320, display: isTableShown ? 'none' : undefined }}
      />
      <p id={summaryId} style={VISUALLY_HIDDEN}>
        {t('chart.summary', {
          total: formatNumber(result.total),
          metric: t(`metric.${metric}`),
          count: result.buckets.length,
          interval: t(`bucket.${result.bucket}`),
          timeZone: result.timeZone,
        })}
      </p>
      <div id={tableId} hidden={!isTableShown} style={{ maxHeight: 360, overflow: 'auto' }}>
        {isTableShown ? (
          <table style={{ borderCollapse: 'collapse', fontSize: 12, width: '100%' }}>
            <caption style={{ textAlign: 'left', padding: '4px 8px' }}>
              {t('chart.tableCaption', { title })}
            </caption>
            <thead>
              <tr>
                <th scope="col" style={{ ...cellStyle, textAlign: 'left' }}>
                  {t('chart.time')} ({result.timeZone})
                </th>
                {result.series.map((s) => (
                  <th key={s.id} scope="col" style={{ ...cellStyle, textAlign: 'right' }}>
                    {seriesName(s, labels)}
                  </th>
                ))}
                <th scope="col" style={{ ...cellStyle, textAlign: 'right' }}>
                  {t('chart.total')}
                </th>
              </tr>
            </thead>
            <tbody>
              {result.buckets.map((bucket, i) => (
                <tr key={bucket}>
                  <th scope="row" style={{ ...cellStyle, textAlign: 'left', fontWeight: 'normal' }}>
                    {formatZonedDateTime(bucket, result.timeZone)}
                  </th>
                  {result.series.map((s) => (
                    <td key={s.id} style={{ ...cellStyle, textAlign: 'right' }}>
                      {formatNumber(s.data[i] ?? 0)}
                    </td>
                  ))}
                  <td style={{ ...cellStyle, textAlign: 'right' }}>
                    {formatNumber(totals[i] ?? 0)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
    </Flex>
  );
}
