/** The five methods that cost the most RUs: a bar chart and the same figures as a small table. */
import type { TTopMethodRow, TTopMethodsResult } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Empty, Flex, Table } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useECharts } from '../../../lib/use-echarts';
import { buildTopMethodsChartOption } from '../utils/chart-options';
import { namedTable } from './named-table';

export type TTopMethodsProps = {
  top: TTopMethodsResult;
  formatNumber: (n: number) => string;
  formatPercent: (share: number) => string;
};

function TopMethodsChart({ top, formatNumber }: Omit<TTopMethodsProps, 'formatPercent'>) {
  const { t } = useTranslation('statistic');
  const ru = t('top.ru');
  const option = useMemo(
    () => buildTopMethodsChartOption(top, { ru, formatNumber }),
    [top, ru, formatNumber],
  );
  const ref = useECharts<HTMLDivElement>(option);
  return (
    <div
      ref={ref}
      role="img"
      aria-label={t('top.chartLabel')}
      data-points={top.list.length}
      style={{ width: '100%', height: 200 }}
    />
  );
}

export function TopMethods({ top, formatNumber, formatPercent }: TTopMethodsProps) {
  const { t } = useTranslation('statistic');
  const tableLabel = t('top.tableLabel');
  const components = useMemo(() => namedTable(tableLabel), [tableLabel]);
  if (top.list.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('top.empty')} />;
  const columns: TableColumnsType<TTopMethodRow> = [
    { key: 'method', title: t('top.method'), dataIndex: 'method' },
    {
      key: 'requests',
      title: t('top.requests'),
      dataIndex: 'requests',
      align: 'right',
      render: (n: number) => formatNumber(n),
    },
    {
      key: 'ru',
      title: t('top.ru'),
      dataIndex: 'ru',
      align: 'right',
      render: (n: number) => formatNumber(n),
    },
    {
      key: 'share',
      title: t('top.share'),
      dataIndex: 'ruShare',
      align: 'right',
      render: (share: number) => formatPercent(share),
    },
  ];
  return (
    <Flex vertical gap={8}>
      <TopMethodsChart top={top} formatNumber={formatNumber} />
      <Table<TTopMethodRow>
        rowKey="method"
        size="small"
        columns={columns}
        dataSource={top.list}
        pagination={false}
        components={components}
      />
    </Flex>
  );
}
