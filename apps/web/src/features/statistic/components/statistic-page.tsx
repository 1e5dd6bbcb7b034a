/**
 * /rpc/statistic: usage over time by key or network, the top methods by RU, totals and the per-key and
 * per-network tables, for a time range in the browser's time zone. The last selection and answers are kept
 * in the cached-stats key (SPEC §9) and shown at once on a revisit while they refresh.
 */
import { DownloadOutlined } from '@ant-design/icons';
import type { TErrorCode, TReportBucket, TReportScope } from '@rpc/contract';
import { ERROR_CATALOGUE, localDate } from '@rpc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Skeleton, Spin, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { browserTimeZone } from '../../../lib/format-date-time';
import { formatNumber as formatLangNumber, numberFormat } from '../../../lib/format-number';
import { useLocale } from '../../../lib/i18n';
import { localePath } from '../../../lib/locale-path';
import { useSession } from '../../../lib/session';
import { usePureApiKeys } from '../api/get-pure-api-keys';
import { useRefusals } from '../api/get-refusals';
import { useSupportChains } from '../api/get-support-chains';
import { useTopMethods } from '../api/get-top-methods';
import { useUsageByApiKey } from '../api/get-usage-by-api-key';
import { useUsageByNetwork } from '../api/get-usage-by-network';
import { useUsageOverTime } from '../api/get-usage-over-time';
import { useUsageTotals } from '../api/get-usage-totals';
import { REPORTS_QUERY_KEY } from '../api/report-query-key';
import type { TCachedAnswers } from '../utils/cached-stats';
import { readCachedStats, writeCachedStats } from '../utils/cached-stats';
import { downloadTextFile } from '../../../lib/download-text-file';
import { buildStatisticCsvRows, toCsv } from '../utils/csv';
import type {
  TMetric,
  TRangeChoice,
  TStackBy,
  TStatisticFilters,
  TTimeRange,
} from '../utils/filters';
import {
  DEFAULT_FILTERS,
  PRESET_MS,
  buildReportParams,
  defaultBucket,
  rangeErrorCode,
  resolveRange,
} from '../utils/filters';
import { Refusals } from './refusals';
import { StatisticFilters } from './statistic-filters';
import { TopMethods } from './top-methods';
import { UsageChart } from './usage-chart';
import { UsageTable } from './usage-table';
import { UsageTotals } from './usage-totals';

const NO_ANSWERS: TCachedAnswers = {};

/** A card that is also a named region (its heading), so each part of the page can be found by name. */
function SectionCard({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Card
        title={
          <h2 id={headingId} style={{ margin: 0, fontSize: 16 }}>
            {title}
          </h2>
        }
      >
        {children}
      </Card>
    </section>
  );
}

export function StatisticPage() {
  const { t } = useTranslation('statistic');
  const { lang } = useLocale();
  const queryClient = useQueryClient();
  const timeZone = useMemo(browserTimeZone, []);
  const [cached] = useState(readCachedStats);
  const [filters, setFilters] = useState<TStatisticFilters>(cached?.filters ?? DEFAULT_FILTERS);
  // A preset range ends at the moment it was chosen (or refreshed), so its query key stays put meanwhile.
  const [now, setNow] = useState(() => Date.now());
  // The cached answers stand in only for the selection they were saved with.
  const [isPristine, setPristine] = useState(true);
  const placeholders = isPristine && cached ? cached.answers : NO_ANSWERS;

  const formatNumber = useCallback((n: number) => formatLangNumber(n, lang), [lang]);
  const formatPercent = useCallback(
    (share: number) => numberFormat(lang, 'percent').format(share),
    [lang],
  );

  // Acting for a team, "Team" is a scope; acting as a personal account there is no team to name.
  const hasTeamScope = useSession((s) => s.loginType === 'team');
  const keys = usePureApiKeys();
  const chains = useSupportChains();

  const range = useMemo(() => resolveRange(filters, now), [filters, now]);
  const rangeError: TErrorCode | null = range
    ? rangeErrorCode(range, filters.bucket, timeZone, now)
    : null;
  // A key remembered in cached-stats may have been deleted since: wait for the list and check it.
  const isKeyKnown = !!filters.keyId && !!keys.data?.list.some((k) => k.keyId === filters.keyId);
  const needsKey = filters.scope === 'apikey' && !isKeyKnown;
  const isReady = !!range && rangeError === null && !needsKey;
  const params = useMemo(
    () => buildReportParams(filters, range ?? { from: 0, to: 0 }, timeZone),
    [filters, range, timeZone],
  );

  const usage = useUsageOverTime(
    { params, metric: filters.metric, stackBy: filters.stackBy },
    { enabled: isReady, placeholder: placeholders.usage },
  );
  const totals = useUsageTotals(params, { enabled: isReady, placeholder: placeholders.totals });
  const top = useTopMethods(params, filters.stackBy, {
    enabled: isReady,
    placeholder: placeholders.top,
  });
  const byKey = useUsageByApiKey(params, { enabled: isReady, placeholder: placeholders.byKey });
  const byNetwork = useUsageByNetwork(params, {
    enabled: isReady,
    placeholder: placeholders.byNetwork,
  });
  // Its own card, loading and error: not part of the cached answers, so a revisit shows the rest at once.
  const refusals = useRefusals(params, { enabled: isReady });
  const queries = [usage, totals, top, byKey, byNetwork];
  const isFetching = queries.some((q) => q.isFetching);
  const isShowingOld = queries.some((q) => q.isPlaceholderData);
  const failed = queries.filter((q) => q.isError && !q.data);
  const isLoading = queries.some((q) => q.isPending);

  // Keep the selection and, once every answer for it is in, the answers (SPEC §9 cached-stats).
  const isAllFresh = queries.every((q) => q.isSuccess && !q.isPlaceholderData);
  useEffect(() => {
    if (!isAllFresh && isPristine) return;
    writeCachedStats({
      savedAt: Date.now(),
      filters,
      answers: isAllFresh
        ? {
            ...(usage.data ? { usage: usage.data } : {}),
            ...(totals.data ? { totals: totals.data } : {}),
            ...(top.data ? { top: top.data } : {}),
            ...(byKey.data ? { byKey: byKey.data.list } : {}),
            ...(byNetwork.data ? { byNetwork: byNetwork.data.list } : {}),
          }
        : {},
    });
  }, [
    isAllFresh,
    isPristine,
    filters,
    usage.data,
    totals.data,
    top.data,
    byKey.data,
    byNetwork.data,
  ]);

  const change = (patch: Partial<TStatisticFilters>) => {
    setPristine(false);
    setFilters((f) => ({ ...f, ...patch }));
  };

  const onRangeChange = (choice: TRangeChoice) => {
    const at = Date.now();
    setNow(at);
    if (choice === 'custom') {
      const custom = resolveRange({ ...filters, range: 'custom' }, at);
      change({ range: 'custom', ...(custom ? { bucket: defaultBucket(custom, at) } : {}) });
      return;
    }
    const next: TTimeRange = { from: at - PRESET_MS[choice], to: at };
    change({ range: choice, bucket: defaultBucket(next, at) });
  };

  const onCustomRangeChange = (next: TTimeRange) => {
    const at = Date.now();
    setNow(at);
    change({ customFrom: next.from, customTo: next.to, bucket: defaultBucket(next, at) });
  };

  const onScopeChange = (scope: TReportScope) => {
    const firstKey = keys.data?.list[0]?.keyId;
    change({
      scope,
      ...(scope === 'apikey' && !isKeyKnown && firstKey ? { keyId: firstKey } : {}),
    });
  };

  const onRefresh = () => {
    if (filters.range === 'custom')
      void queryClient.invalidateQueries({ queryKey: REPORTS_QUERY_KEY });
    else setNow(Date.now());
  };

  const onRetry = () => {
    for (const q of failed) void q.refetch();
  };

  const onDownload = () => {
    if (!range) return;
    const csv = toCsv(
      buildStatisticCsvRows({
        series: usage.data ?? null,
        byKey: byKey.data?.list ?? [],
        byNetwork: byNetwork.data?.list ?? [],
        labels: {
          metric: t(`chart.title.${filters.metric}`),
          time: t('chart.time'),
          total: t('chart.total'),
          deleted: t('deleted'),
          byKeyTitle: t('byKey.title'),
          byNetworkTitle: t('byNetwork.title'),
          apiKey: t('table.apiKey'),
          network: t('table.network'),
          requests: t('table.requests'),
          ru: t('table.ru'),
          errors: t('table.errors'),
          share: `${t('table.share')} (%)`,
        },
      }),
    );
    const fileName = t('csv.fileName', {
      from: localDate(range.from, timeZone),
      to: localDate(range.to, timeZone),
    });
    downloadTextFile(fileName, csv);
  };

  const isEmpty = !!totals.data && !totals.isPlaceholderData && totals.data.requests === 0;
  const hasData = !!usage.data && !!totals.data && !!top.data && !!byKey.data && !!byNetwork.data;

  const refusalsCard = (
    <SectionCard title={t('refusals.title')}>
      {refusals.data ? (
        <Refusals
          result={refusals.data}
          formatNumber={formatNumber}
          formatPercent={formatPercent}
        />
      ) : refusals.isError ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          message={t('refusals.loadFailed')}
          action={<Button onClick={() => void refusals.refetch()}>{t('retry')}</Button>}
        />
      ) : (
        <div role="status" aria-label={t('refusals.loading')}>
          <Skeleton active paragraph={{ rows: 3 }} />
        </div>
      )}
    </SectionCard>
  );
  const hasRefusals = !!refusals.data && refusals.data.total + refusals.data.totalErrors > 0;

  const body = () => {
    if (filters.range === 'custom' && !range)
      return <Alert type="info" showIcon message={t('chooseCustomRange')} />;
    if (rangeError !== null) {
      const entry = ERROR_CATALOGUE[rangeError];
      return (
        <Alert type="warning" showIcon role="alert" message={lang === 'zh' ? entry.zh : entry.en} />
      );
    }
    if (needsKey)
      return keys.isPending ? (
        <div role="status" aria-label={t('loading')}>
          <Skeleton active paragraph={{ rows: 8 }} />
        </div>
      ) : (
        <Alert type="info" showIcon message={t('chooseKey')} />
      );
    if (failed.length > 0)
      return (
        <Alert
          type="error"
          showIcon
          role="alert"
          message={t('loadFailed')}
          action={<Button onClick={onRetry}>{t('retry')}</Button>}
        />
      );
    if (isLoading || !hasData)
      return (
        <div role="status" aria-label={t('loading')}>
          <Skeleton active paragraph={{ rows: 8 }} />
        </div>
      );
    if (isEmpty)
      return (
        <Flex vertical gap={16}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty.description')}>
            <Typography.Paragraph type="secondary">{t('empty.hint')}</Typography.Paragraph>
            <Link to={localePath('/rpc/endpoint', lang)}>{t('empty.action')}</Link>
          </Empty>
          {/* Every call refused (no RUs left, say) is no usage, but it is what the user must see. */}
          {hasRefusals ? refusalsCard : null}
        </Flex>
      );
    return (
      <Flex vertical gap={16}>
        <UsageTotals totals={totals.data} formatNumber={formatNumber} />
        <SectionCard title={t('chart.cardTitle')}>
          <UsageChart result={usage.data} metric={filters.metric} formatNumber={formatNumber} />
        </SectionCard>
        {refusalsCard}
        <SectionCard title={t('top.title')}>
          <TopMethods top={top.data} formatNumber={formatNumber} formatPercent={formatPercent} />
        </SectionCard>
        <SectionCard title={t('byKey.title')}>
          <UsageTable
            kind="apikey"
            rows={byKey.data.list}
            isLoading={byKey.isFetching && byKey.isPlaceholderData}
            formatNumber={formatNumber}
            formatPercent={formatPercent}
          />
        </SectionCard>
        <SectionCard title={t('byNetwork.title')}>
          <UsageTable
            kind="network"
            rows={byNetwork.data.list}
            isLoading={byNetwork.isFetching && byNetwork.isPlaceholderData}
            formatNumber={formatNumber}
            formatPercent={formatPercent}
          />
        </SectionCard>
      </Flex>
    );
  };

  return (
    <section aria-labelledby="page-title">
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Title level={1} id="page-title" style={{ fontSize: 24, margin: 0 }}>
          {t('home.title')}
        </Typography.Title>
        <Button
          icon={<DownloadOutlined aria-hidden />}
          disabled={!hasData || !isReady}
          onClick={onDownload}
        >
          {t('csv.download')}
        </Button>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('home.description', { timeZone })}
      </Typography.Paragraph>
      <Flex vertical gap={16}>
        <StatisticFilters
          filters={filters}
          range={range}
          now={now}
          keys={keys.data?.list ?? []}
          chains={chains.data?.list ?? []}
          isRefreshing={isFetching && !isLoading}
          hasTeamScope={hasTeamScope}
          onRangeChange={onRangeChange}
          onCustomRangeChange={onCustomRangeChange}
          onBucketChange={(bucket: TReportBucket) => change({ bucket })}
          onScopeChange={onScopeChange}
          onKeyChange={(keyId) => change({ scope: 'apikey', keyId })}
          onChainChange={(chain) => change({ chain })}
          onMetricChange={(metric: TMetric) => change({ metric })}
          onStackByChange={(stackBy: TStackBy) => change({ stackBy })}
          onRefresh={onRefresh}
        />
        {isShowingOld && isFetching && isReady ? (
          <Flex gap={8} align="center">
            <Spin size="small" />
            <Typography.Text type="secondary" role="status">
              {isPristine && cached ? t('cached') : t('updating')}
            </Typography.Text>
          </Flex>
        ) : null}
        {body()}
      </Flex>
    </section>
  );
}
