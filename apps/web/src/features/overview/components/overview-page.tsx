/**
 * /rpc: today at a glance in the browser's time zone: requests and RUs used today, the RU balance, the keys
 * that used the most today and a sparkline of the last 24 hours, with links to the details.
 */
import type { TReportSeriesResult, TUsageByApikeyRow } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import {
  Alert,
  Button,
  Card,
  Col,
  Flex,
  Row,
  Skeleton,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ComponentProps } from 'react';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { browserTimeZone } from '../../../lib/format-date-time';
import { LANG_TAG, useLocale } from '../../../lib/i18n';
import { fetchLimitInfo, useLimitInfo } from '../../../lib/limit-info';
import { localePath } from '../../../lib/locale-path';
import { useECharts } from '../../../lib/use-echarts';
import { useRequestsLast24Hours } from '../api/get-requests-last-24-hours';
import type { TOverviewRange } from '../api/get-today-totals';
import { useTodayTotals } from '../api/get-today-totals';
import { useTopKeysToday } from '../api/get-top-keys-today';
import { buildSparklineOption, last24HoursRange, sumSeries, todayRange } from '../utils/overview';

const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

function Sparkline({
  result,
  formatNumber,
}: {
  result: TReportSeriesResult;
  formatNumber: (n: number) => string;
}) {
  const { t } = useTranslation('overview');
  const summaryId = useId();
  const requests = t('topKeys.requests');
  const option = useMemo(
    () => buildSparklineOption(result, { requests, formatNumber }),
    [result, requests, formatNumber],
  );
  const ref = useECharts<HTMLDivElement>(option);
  const total = sumSeries(result).reduce((a, b) => a + b, 0);
  return (
    <>
      <div
        ref={ref}
        role="img"
        aria-label={t('sparkline.label')}
        aria-describedby={summaryId}
        data-bucket={result.bucket}
        data-points={result.buckets.length}
        data-total={total}
        style={{ width: '100%', height: 64 }}
      />
      <p id={summaryId} style={VISUALLY_HIDDEN}>
        {t('sparkline.summary', { total: formatNumber(total) })}
      </p>
    </>
  );
}

export function OverviewPage() {
  const { t } = useTranslation('overview');
  const { lang } = useLocale();
  const timeZone = useMemo(browserTimeZone, []);
  // Computed once per visit: the ranges end with the current hour, so the query keys stay put.
  const [ranges] = useState(() => {
    const now = Date.now();
    return {
      today: { ...todayRange(now, timeZone), timeZone } satisfies TOverviewRange,
      last24h: { ...last24HoursRange(now, timeZone), timeZone } satisfies TOverviewRange,
    };
  });
  const totals = useTodayTotals(ranges.today);
  const topKeys = useTopKeysToday(ranges.today);
  const sparkline = useRequestsLast24Hours(ranges.last24h);
  const { info: limitInfo, fetchedAt } = useLimitInfo();

  // The balance shows from the local copy at once and is refreshed once per page life.
  useEffect(() => {
    if (fetchedAt === 0) void fetchLimitInfo();
  }, [fetchedAt]);

  const formatNumber = useCallback(
    (n: number) => new Intl.NumberFormat(LANG_TAG[lang]).format(n),
    [lang],
  );
  const tableLabel = t('topKeys.title');
  const components = useMemo(
    () => ({
      table: (props: ComponentProps<'table'>) => <table {...props} aria-label={tableLabel} />,
    }),
    [tableLabel],
  );

  const queries = [totals, topKeys, sparkline];
  const failed = queries.filter((q) => q.isError && !q.data);

  const columns: TableColumnsType<TUsageByApikeyRow> = [
    {
      key: 'name',
      title: t('topKeys.apiKey'),
      dataIndex: 'name',
      render: (name: string, row) =>
        row.deleted ? (
          <>
            {name} <Tag>{t('deleted')}</Tag>
          </>
        ) : (
          name
        ),
    },
    {
      key: 'requests',
      title: t('topKeys.requests'),
      dataIndex: 'requests',
      align: 'right',
      render: (n: number) => formatNumber(n),
    },
    {
      key: 'ru',
      title: t('topKeys.ru'),
      dataIndex: 'ru',
      align: 'right',
      render: (n: number) => formatNumber(n),
    },
  ];

  const figure = (value: number | undefined, isLoading: boolean) =>
    isLoading ? (
      <Skeleton.Input active size="small" />
    ) : value === undefined ? (
      '-'
    ) : (
      formatNumber(value)
    );

  return (
    <section aria-labelledby="page-title">
      <Typography.Title level={1} id="page-title" style={{ fontSize: 24 }}>
        {t('home.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {t('home.description', { timeZone })}
      </Typography.Paragraph>
      <Flex vertical gap={16}>
        {failed.length > 0 ? (
          <Alert
            type="error"
            showIcon
            role="alert"
            message={t('loadFailed')}
            action={
              <Button onClick={() => failed.forEach((q) => void q.refetch())}>{t('retry')}</Button>
            }
          />
        ) : null}
        <Row gutter={[16, 16]}>
          <Col xs={24} md={8}>
            <Card>
              <Statistic
                title={t('cards.requests')}
                valueRender={() => figure(totals.data?.requests, totals.isPending)}
              />
            </Card>
          </Col>
          <Col xs={24} md={8}>
            <Card>
              <Statistic
                title={t('cards.ru')}
                valueRender={() => figure(totals.data?.ru, totals.isPending)}
              />
            </Card>
          </Col>
          <Col xs={24} md={8}>
            <Card>
              <Statistic
                title={t('cards.remaining')}
                valueRender={() =>
                  limitInfo ? formatNumber(limitInfo.ruBalance) : t('cards.remainingUnknown')
                }
              />
              <Typography.Text type="secondary">{t('cards.remainingHint')}</Typography.Text>
            </Card>
          </Col>
        </Row>
        <Card
          title={<h2 style={{ margin: 0, fontSize: 16 }}>{t('sparkline.title')}</h2>}
          extra={<Link to={localePath('/rpc/statistic', lang)}>{t('links.statistic')}</Link>}
        >
          {sparkline.data ? (
            <Sparkline result={sparkline.data} formatNumber={formatNumber} />
          ) : sparkline.isPending ? (
            <div role="status" aria-label={t('loading')}>
              <Skeleton active paragraph={{ rows: 1 }} title={false} />
            </div>
          ) : null}
        </Card>
        <Card
          title={<h2 style={{ margin: 0, fontSize: 16 }}>{t('topKeys.title')}</h2>}
          extra={<Link to={localePath('/rpc/endpoint', lang)}>{t('links.endpoint')}</Link>}
        >
          <Table<TUsageByApikeyRow>
            rowKey="keyId"
            size="small"
            columns={columns}
            dataSource={topKeys.data ?? []}
            loading={topKeys.isPending && !topKeys.isError}
            pagination={false}
            components={components}
            locale={{ emptyText: t('topKeys.empty') }}
          />
        </Card>
      </Flex>
    </section>
  );
}
