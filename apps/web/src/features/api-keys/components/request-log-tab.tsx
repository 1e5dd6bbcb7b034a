/**
 * The endpoint page's "Request log" tab (?tab=logs, ?key= picks the key): the newest calls the gateway settled or
 * refused for one key, searchable by method, filtered by outcome and period, SPEC §9 paged. Params and results
 * are never kept, so none are shown (docs/decisions/request-log.md).
 */
import { ReloadOutlined } from '@ant-design/icons';
import type { TRequestLogEntry, TRequestLogFilter, TRequestLogOutcome } from '@rpc/contract';
import { REQUEST_LOG_FILTERS } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Alert, Button, Empty, Flex, Input, Select, Skeleton, Tag, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable, type TPaging } from '../../../components/paged-table';
import { TAG_STYLE } from '../../../components/tag-styles';
import { PAGE_SIZE_DEFAULT } from '../../../lib/table-pagination';
import { useApiKeyRequestLogs } from '../api/get-api-key-request-logs';
import { usePureApiKeys } from '../api/get-pure-api-keys';

/** SPEC §9 date format with seconds (YYYY-MM-DD HH:mm:ss) in local time: calls are seconds apart. */
export function formatLogTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}

const OUTCOME_STYLE: Record<TRequestLogOutcome, CSSProperties> = {
  ok: TAG_STYLE.green,
  rpc_error: TAG_STYLE.red,
  refused: TAG_STYLE.gold,
  upstream_failed: TAG_STYLE.red,
  cancelled: TAG_STYLE.gray,
};

const PERIODS = ['all', 'hour', 'day'] as const;
type TPeriod = (typeof PERIODS)[number];
const PERIOD_MS: Record<Exclude<TPeriod, 'all'>, number> = { hour: 3_600_000, day: 86_400_000 };

type TRow = TRequestLogEntry & { rowKey: string };

export function RequestLogTab({
  initialKeyId,
  formatNumber,
}: {
  /** the key to show first (?key=, the drawer's "View request log") */
  initialKeyId: string | null;
  formatNumber: (n: number) => string;
}) {
  const { t } = useTranslation('request-log');
  const keys = usePureApiKeys();
  const keyList = keys.data?.list ?? [];
  const [chosenKeyId, setChosenKeyId] = useState<string | null>(initialKeyId);
  // The key asked for, while it is one of the account's; else the first.
  const keyId = keyList.some((k) => k.keyId === chosenKeyId)
    ? chosenKeyId
    : (keyList[0]?.keyId ?? null);
  const [paging, setPaging] = useState<TPaging>({ page: 1, perPage: PAGE_SIZE_DEFAULT });
  const [method, setMethod] = useState('');
  const [outcome, setOutcome] = useState<TRequestLogFilter>('all');
  const [period, setPeriod] = useState<TPeriod>('all');
  // A period counts back from when it was chosen (or refreshed), so the query key stays put between renders.
  const [periodEnd, setPeriodEnd] = useState(() => Date.now());
  const from = period === 'all' ? undefined : periodEnd - PERIOD_MS[period];
  const logs = useApiKeyRequestLogs(
    keyId
      ? {
          keyId,
          page: paging.page,
          perPage: paging.perPage,
          outcome,
          ...(method ? { method } : {}),
          ...(from !== undefined ? { from } : {}),
        }
      : null,
  );
  const firstPage = () => setPaging((p) => ({ ...p, page: 1 }));
  const isFiltered = method !== '' || outcome !== 'all' || period !== 'all';

  const columns = useMemo<TableColumnsType<TRow>>(
    () => [
      {
        title: t('columns.time'),
        dataIndex: 'at',
        render: (at: number) => <span style={{ whiteSpace: 'nowrap' }}>{formatLogTime(at)}</span>,
      },
      {
        title: t('columns.method'),
        dataIndex: 'method',
        render: (m: string) =>
          m ? (
            <Typography.Text code>{m}</Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t('noMethod')}</Typography.Text>
          ),
      },
      { title: t('columns.chain'), dataIndex: 'chain' },
      {
        title: t('columns.transport'),
        dataIndex: 'transport',
        render: (tr: TRequestLogEntry['transport']) => t(`transport.${tr}`),
      },
      {
        title: t('columns.outcome'),
        dataIndex: 'outcome',
        render: (o: TRequestLogOutcome) => <Tag style={OUTCOME_STYLE[o]}>{t(`outcome.${o}`)}</Tag>,
      },
      {
        title: t('columns.errorCode'),
        dataIndex: 'errorCode',
        render: (code: number | null) => (code === null ? '-' : String(code)),
      },
      {
        title: t('columns.latency'),
        dataIndex: 'latencyMs',
        align: 'right',
        render: (ms: number) => t('latencyValue', { value: formatNumber(ms) }),
      },
      {
        title: t('columns.ru'),
        dataIndex: 'ru',
        align: 'right',
        render: (ru: number) => formatNumber(ru),
      },
    ],
    [t, formatNumber],
  );

  if (keys.isLoading)
    return (
      <div role="status" aria-label={t('loading')}>
        <Skeleton active paragraph={{ rows: 4 }} />
      </div>
    );
  if (keys.isError && !keys.data)
    return (
      <Alert
        type="error"
        showIcon
        message={t('keysFailed')}
        action={<Button onClick={() => void keys.refetch()}>{t('retry')}</Button>}
      />
    );
  if (keyList.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noKeys')} />;

  const data = logs.data;
  const rows: TRow[] | undefined = data?.list.map((e, i) => ({
    ...e,
    rowKey: `${e.at}:${i}:${paging.page}`,
  }));
  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('intro')}
      </Typography.Paragraph>
      <Flex gap={12} wrap align="center">
        <Select
          aria-label={t('filters.key')}
          style={{ minWidth: 200 }}
          value={keyId}
          options={keyList.map((k) => ({ value: k.keyId, label: k.name }))}
          onChange={(value: string) => {
            setChosenKeyId(value);
            firstPage();
          }}
        />
        <Input.Search
          aria-label={t('filters.method')}
          placeholder={t('filters.methodPlaceholder')}
          allowClear
          maxLength={64}
          style={{ maxWidth: 260 }}
          onSearch={(value) => {
            setMethod(value.trim());
            firstPage();
          }}
        />
        <Select
          aria-label={t('filters.outcome')}
          style={{ minWidth: 160 }}
          value={outcome}
          options={REQUEST_LOG_FILTERS.map((f) => ({
            value: f,
            label: t(`filters.outcomes.${f}`),
          }))}
          onChange={(value: TRequestLogFilter) => {
            setOutcome(value);
            firstPage();
          }}
        />
        <Select
          aria-label={t('filters.period')}
          style={{ minWidth: 160 }}
          value={period}
          options={PERIODS.map((p) => ({ value: p, label: t(`filters.periods.${p}`) }))}
          onChange={(value: TPeriod) => {
            setPeriod(value);
            setPeriodEnd(Date.now());
            firstPage();
          }}
        />
        <Button
          icon={<ReloadOutlined aria-hidden />}
          loading={logs.isFetching}
          onClick={() => {
            setPeriodEnd(Date.now());
            void logs.refetch();
          }}
        >
          {t('refresh')}
        </Button>
      </Flex>
      {data && data.dropped > 0 ? (
        <Alert
          type="warning"
          showIcon
          message={t('dropped', { count: data.dropped, formatted: formatNumber(data.dropped) })}
        />
      ) : null}
      <PagedTable<TRow>
        label={t('tableLabel')}
        rowKey="rowKey"
        columns={columns}
        rows={rows}
        total={data?.total ?? 0}
        paging={paging}
        onPagingChange={setPaging}
        isLoading={logs.isLoading}
        isFetching={logs.isFetching && !logs.isLoading}
        isError={logs.isError}
        onRetry={() => void logs.refetch()}
        totalText={(total) => t('total', { count: total, formatted: formatNumber(total) })}
        emptyText={
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={isFiltered ? t('empty.filtered') : t('empty.none')}
          />
        }
      />
      {data ? (
        <Typography.Text type="secondary">
          {t('bounds', {
            hours: formatNumber(data.retentionHours),
            max: formatNumber(data.maxEntries),
          })}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}
