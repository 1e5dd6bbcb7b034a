/**
 * /rpc: today at a glance in the browser's time zone: requests and RUs used today, the RUs left and the plan's
 * rates (with the way to buy more), requests per hour over the last 24 hours, the keys that used the most today
 * and the gateway's documentation.
 */
import { ArrowRightOutlined } from '@ant-design/icons';
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
import type { ComponentProps, ReactNode } from 'react';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { browserTimeZone } from '../../../lib/format-date-time';
import { formatNumber as formatLangNumber } from '../../../lib/format-number';
import { useLocale } from '../../../lib/i18n';
import type { TLimitInfo } from '../../../lib/limit-info';
import { fetchLimitInfo, useLimitInfo } from '../../../lib/limit-info';
import { LocalizedLink } from '../../../lib/locale-path';
import { useECharts } from '../../../lib/use-echarts';
import { useRequestsLast24Hours } from '../api/get-requests-last-24-hours';
import type { TOverviewRange } from '../api/get-today-totals';
import { useTodayTotals } from '../api/get-today-totals';
import { useTopKeysToday } from '../api/get-top-keys-today';
import {
  buildLast24HoursOption,
  daysOfRuLeft,
  last24HoursRange,
  nextTier,
  sumSeries,
  todayRange,
} from '../utils/overview';

const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** Where the gateway's documentation lives in the console (the endpoint page's tabs, ?tab=). */
export const GATEWAY_DOCS = [
  { key: 'guide', to: '/rpc/endpoint?tab=guide' },
  { key: 'limits', to: '/rpc/endpoint?tab=limits' },
  { key: 'endpoints', to: '/rpc/endpoint' },
] as const;

const h2 = { margin: 0, fontSize: 16 } as const;
/** Cards of a row stretch to the row's height. */
const fullHeight = { height: '100%' } as const;

function Last24HoursChart({
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
    () => buildLast24HoursOption(result, { requests, formatNumber }),
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
        style={{ width: '100%', height: 240 }}
      />
      <p id={summaryId} style={VISUALLY_HIDDEN}>
        {t('sparkline.summary', { total: formatNumber(total), timeZone: result.timeZone })}
      </p>
    </>
  );
}

/** The plan's rates and the way to more: tier, requests and RUs per second, the next tier, buy or upgrade. */
function PlanCard({
  info,
  formatNumber,
}: {
  info: TLimitInfo | null;
  formatNumber: (n: number) => string;
}) {
  const { t } = useTranslation('overview');
  const next = info ? nextTier(info.tiers, info.currentLimitRateOrder) : null;
  return (
    <Card style={fullHeight} title={<h2 style={h2}>{t('plan.title')}</h2>}>
      {info ? (
        <Flex vertical gap={8}>
          <Typography.Text strong style={{ fontSize: 20 }}>
            {/* the tier's short name: the title view repeats the rates shown below */}
            {info.currentLimitRateLevelView || info.currentLimitRateTitleView}
          </Typography.Text>
          <Typography.Text>
            {t('plan.rates', {
              req: formatNumber(info.reqPerSec),
              ru: formatNumber(info.ruPerSec),
            })}
          </Typography.Text>
          {info.tiers.length > 0 ? (
            <Typography.Text type="secondary">
              {next
                ? t('plan.next', { name: next.name, req: formatNumber(next.reqPerSec) })
                : t('plan.top')}
            </Typography.Text>
          ) : null}
        </Flex>
      ) : (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      )}
      <Flex gap={8} wrap style={{ marginTop: 16 }}>
        <LinkButton to="/rpc/billings" type="primary">
          {next ? t('plan.upgrade') : t('plan.buy')}
        </LinkButton>
        <LinkButton to="/rpc/endpoint?tab=limits">{t('plan.compare')}</LinkButton>
      </Flex>
    </Card>
  );
}

function FigureCard({ title, value, hint }: { title: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <Card style={fullHeight}>
      <Statistic title={title} valueRender={() => value} />
      {hint ? <Typography.Text type="secondary">{hint}</Typography.Text> : null}
    </Card>
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
      now,
      today: { ...todayRange(now, timeZone), timeZone } satisfies TOverviewRange,
      last24h: { ...last24HoursRange(now, timeZone), timeZone } satisfies TOverviewRange,
    };
  });
  const totals = useTodayTotals(ranges.today);
  const topKeys = useTopKeysToday(ranges.today);
  const last24h = useRequestsLast24Hours(ranges.last24h);
  const { info: limitInfo, fetchedAt } = useLimitInfo();

  // The balance shows from the local copy at once and is refreshed once per page life.
  useEffect(() => {
    if (fetchedAt === 0) void fetchLimitInfo();
  }, [fetchedAt]);

  const formatNumber = useCallback((n: number) => formatLangNumber(n, lang), [lang]);
  const tableLabel = t('topKeys.title');
  const components = useMemo(
    () => ({
      table: (props: ComponentProps<'table'>) => <table {...props} aria-label={tableLabel} />,
    }),
    [tableLabel],
  );

  const queries = [totals, topKeys, last24h];
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

  const daysLeft =
    limitInfo && totals.data
      ? daysOfRuLeft(limitInfo.ruBalance, totals.data.ru, ranges.now - ranges.today.from)
      : null;

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
        <Row gutter={[16, 16]} align="stretch">
          <Col xs={24} sm={12} xl={6}>
            <FigureCard
              title={t('cards.requests')}
              value={figure(totals.data?.requests, totals.isPending)}
            />
          </Col>
          <Col xs={24} sm={12} xl={6}>
            <FigureCard title={t('cards.ru')} value={figure(totals.data?.ru, totals.isPending)} />
          </Col>
          <Col xs={24} sm={12} xl={6}>
            <FigureCard
              title={t('cards.remaining')}
              value={limitInfo ? formatNumber(limitInfo.ruBalance) : t('cards.remainingUnknown')}
              hint={
                daysLeft === null
                  ? t('cards.remainingHint')
                  : t('cards.remainingDays', { count: daysLeft })
              }
            />
          </Col>
          <Col xs={24} sm={12} xl={6}>
            <PlanCard info={limitInfo} formatNumber={formatNumber} />
          </Col>
        </Row>
        <Card
          title={<h2 style={h2}>{t('sparkline.title')}</h2>}
          extra={
            <LocalizedLink to="/rpc/statistic">
              {t('links.statistic')} <ArrowRightOutlined aria-hidden />
            </LocalizedLink>
          }
        >
          {last24h.data ? (
            <Last24HoursChart result={last24h.data} formatNumber={formatNumber} />
          ) : last24h.isPending ? (
            <div role="status" aria-label={t('loading')}>
              <Skeleton active paragraph={{ rows: 4 }} title={false} />
            </div>
          ) : null}
        </Card>
        <Row gutter={[16, 16]} align="stretch">
          <Col xs={24} lg={16}>
            <Card
              style={fullHeight}
              title={<h2 style={h2}>{t('topKeys.title')}</h2>}
              extra={<LocalizedLink to="/rpc/endpoint">{t('links.endpoint')}</LocalizedLink>}
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
          </Col>
          <Col xs={24} lg={8}>
            <Card style={fullHeight} title={<h2 style={h2}>{t('docs.title')}</h2>}>
              <Typography.Paragraph type="secondary">{t('docs.intro')}</Typography.Paragraph>
              <nav aria-label={t('docs.title')}>
                <ul style={{ margin: 0, paddingLeft: 20, lineHeight: 2 }}>
                  {GATEWAY_DOCS.map((doc) => (
                    <li key={doc.key}>
                      <LocalizedLink to={doc.to}>{t(`docs.links.${doc.key}`)}</LocalizedLink>
                    </li>
                  ))}
                </ul>
              </nav>
            </Card>
          </Col>
        </Row>
      </Flex>
    </section>
  );
}
