/**
 * "Refused and failed requests": the calls the gateway refused (rate limits, no RUs, allowlists, …) by reason and
 * code, and the calls the node answered with an error, over time and in a table. None of them cost RUs.
 */
import type { TRefusalsResult } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Empty, Flex, Statistic, Table, Typography } from 'antd';
import { useCallback, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useECharts } from '../../../lib/use-echarts';
import { buildUsageChartOption } from '../utils/chart-options';
import type { TRefusalReason, TRefusalRowView } from '../utils/refusals';
import { refusalRows, refusalSeries } from '../utils/refusals';
import { namedTable } from './named-table';
import { VISUALLY_HIDDEN } from './visually-hidden';

function RefusalsChart({
  result,
  label,
  formatNumber,
}: {
  result: TRefusalsResult;
  label: (reason: TRefusalReason | 'nodeErrors', code: number | null) => string;
  formatNumber: (n: number) => string;
}) {
  const { t } = useTranslation('statistic');
  const summaryId = useId();
  const deleted = t('deleted');
  const option = useMemo(
    () => buildUsageChartOption(refusalSeries(result, label), { deleted, formatNumber }),
    [result, label, deleted, formatNumber],
  );
  const ref = useECharts<HTMLDivElement>(option);
  return (
    <>
      <div
        ref={ref}
        role="img"
        aria-label={t('refusals.chartLabel')}
        aria-describedby={summaryId}
        data-bucket={result.bucket}
        data-points={result.buckets.length}
        data-total={result.total + result.totalErrors}
        style={{ width: '100%', height: 240 }}
      />
      <p id={summaryId} style={VISUALLY_HIDDEN}>
        {t('refusals.summary', {
          refused: formatNumber(result.total),
          errors: formatNumber(result.totalErrors),
        })}
      </p>
    </>
  );
}

export function Refusals({
  result,
  formatNumber,
  formatPercent,
}: {
  result: TRefusalsResult;
  formatNumber: (n: number) => string;
  formatPercent: (share: number) => string;
}) {
  const { t } = useTranslation('statistic');
  const rows = useMemo(() => refusalRows(result), [result]);
  const title = t('refusals.tableLabel');
  const components = useMemo(() => namedTable(title), [title]);
  const label = useCallback(
    (reason: TRefusalReason | 'nodeErrors', code: number | null) =>
      reason === 'other' ? t('refusals.reasons.other', { code }) : t(`refusals.reasons.${reason}`),
    [t],
  );

  const columns: TableColumnsType<TRefusalRowView> = [
    {
      key: 'reason',
      title: t('refusals.reason'),
      render: (_v, row) => label(row.reason, row.code),
    },
    {
      key: 'status',
      title: t('refusals.status'),
      align: 'right',
      render: (_v, row) => row.status ?? t('refusals.varies'),
    },
    {
      key: 'code',
      title: t('refusals.code'),
      align: 'right',
      render: (_v, row) =>
        row.code === null ? (
          t('refusals.varies')
        ) : (
          <Typography.Text code>{row.code}</Typography.Text>
        ),
    },
    {
      key: 'count',
      title: t('refusals.requests'),
      align: 'right',
      render: (_v, row) => formatNumber(row.count),
    },
    {
      key: 'share',
      title: t('refusals.share'),
      align: 'right',
      render: (_v, row) => formatPercent(row.share),
    },
  ];

  return (
    <Flex vertical gap={12}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('refusals.hint')}
      </Typography.Paragraph>
      <Flex gap={32} wrap>
        <Statistic
          title={t('refusals.refused')}
          value={result.total}
          formatter={(v) => formatNumber(Number(v))}
        />
        <Statistic
          title={t('refusals.nodeErrors')}
          value={result.totalErrors}
          formatter={(v) => formatNumber(Number(v))}
        />
      </Flex>
      {rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('refusals.none')} />
      ) : (
        <>
          <RefusalsChart result={result} label={label} formatNumber={formatNumber} />
          <Table<TRefusalRowView>
            rowKey="id"
            size="small"
            pagination={false}
            columns={columns}
            dataSource={rows}
            components={components}
            scroll={{ x: 'max-content' }}
          />
        </>
      )}
    </Flex>
  );
}
