/**
 * The filter bar in three labelled rows: the period (range, custom dates, interval, refresh), what to count (scope
 * or key, network) and how to draw it (metric, stacking). Acting as a personal account there is no team: the
 * scope choice is left out and one key list, "All API keys" first, says what is counted.
 */
import { ReloadOutlined } from '@ant-design/icons';
import type { GetProps } from 'antd';
import { Button, DatePicker, Flex, Radio, Select, Typography } from 'antd';
import type { TReportBucket, TReportScope } from '@rpc/contract';
import { REPORT_BUCKETS, REPORT_SCOPES } from '@rpc/contract';
import type { ReactNode } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format-date-time';
import type {
  TMetric,
  TRangeChoice,
  TStackBy,
  TStatisticFilters,
  TTimeRange,
} from '../utils/filters';
import { RANGE_CHOICES, isBucketAllowed } from '../utils/filters';

type TRangePickerChange = NonNullable<GetProps<typeof DatePicker.RangePicker>['onChange']>;

export type TStatisticFiltersProps = {
  filters: TStatisticFilters;
  /** the range the selection covers now (null: custom without dates yet) */
  range: TTimeRange | null;
  now: number;
  keys: readonly { keyId: string; name: string }[];
  chains: readonly { id: string; name: string }[];
  isRefreshing: boolean;
  /** false acting as a personal account: no "Team" scope, the key list has "All API keys" instead */
  hasTeamScope: boolean;
  onRangeChange: (range: TRangeChoice) => void;
  onCustomRangeChange: (range: TTimeRange) => void;
  onBucketChange: (bucket: TReportBucket) => void;
  onScopeChange: (scope: TReportScope) => void;
  onKeyChange: (keyId: string) => void;
  onChainChange: (chain: string | undefined) => void;
  onMetricChange: (metric: TMetric) => void;
  onStackByChange: (stackBy: TStackBy) => void;
  onRefresh: () => void;
};

const ALL_NETWORKS = '';
const ALL_KEYS = '';

/** One row of the bar: a visible name, and a group named by it. */
function FilterRow({ label, children }: { label: string; children: ReactNode }) {
  const labelId = useId();
  return (
    <Flex gap={12} wrap align="center" role="group" aria-labelledby={labelId}>
      <Typography.Text id={labelId} strong style={{ minWidth: 96 }}>
        {label}
      </Typography.Text>
      {children}
    </Flex>
  );
}

type TChoiceGroupProps<T extends string> = {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
};

/** Button-style radios in a named radio group (Ant Design's group takes no role of its own). */
function ChoiceGroup<T extends string>({ label, value, options, onChange }: TChoiceGroupProps<T>) {
  // An own name per group: radios sharing a name (Ant Design's fallback id in tests) uncheck each other.
  const name = useId();
  return (
    <div role="radiogroup" aria-label={label}>
      <Radio.Group
        name={name}
        optionType="button"
        buttonStyle="solid"
        value={value}
        onChange={(e) => onChange(e.target.value as T)}
        options={options}
      />
    </div>
  );
}

export function StatisticFilters(props: TStatisticFiltersProps) {
  const { t } = useTranslation('statistic');
  const { filters, range, now } = props;

  const onCustomChange: TRangePickerChange = (dates) => {
    const [start, end] = dates ?? [];
    if (start && end) props.onCustomRangeChange({ from: start.valueOf(), to: end.valueOf() });
  };

  const intervalSelect = (
    <Select
      aria-label={t('filters.interval')}
      style={{ minWidth: 140 }}
      value={filters.bucket}
      onChange={(bucket: TReportBucket) => props.onBucketChange(bucket)}
      // Real DOM options (role option) rather than the virtual list's hidden copies.
      virtual={false}
      options={REPORT_BUCKETS.map((bucket) => {
        const isAllowed = !range || isBucketAllowed(bucket, range, now);
        return {
          value: bucket,
          label: t(`bucket.${bucket}`),
          disabled: !isAllowed,
          title: isAllowed ? t(`bucket.${bucket}`) : t('filters.intervalTooFine'),
        };
      })}
    />
  );

  const keySelect = (withAll: boolean) => (
    <Select
      aria-label={t('filters.apiKey')}
      placeholder={t('filters.apiKeyPlaceholder')}
      style={{ minWidth: 200 }}
      showSearch
      optionFilterProp="label"
      virtual={false}
      // a remembered key that is gone shows as "choose" (or "all"), not as its id
      value={
        filters.scope === 'apikey'
          ? props.keys.some((k) => k.keyId === filters.keyId)
            ? filters.keyId
            : undefined
          : withAll
            ? ALL_KEYS
            : undefined
      }
      onChange={(keyId: string) => {
        if (keyId === ALL_KEYS) props.onScopeChange('team');
        else props.onKeyChange(keyId);
      }}
      options={[
        ...(withAll ? [{ value: ALL_KEYS, label: t('filters.allKeys') }] : []),
        ...props.keys.map((k) => ({ value: k.keyId, label: k.name })),
      ]}
    />
  );

  return (
    <Flex vertical gap={12} role="group" aria-label={t('filters.label')}>
      <FilterRow label={t('filters.rows.period')}>
        <ChoiceGroup
          label={t('filters.range')}
          value={filters.range}
          onChange={props.onRangeChange}
          options={RANGE_CHOICES.map((choice) => ({ value: choice, label: t(`range.${choice}`) }))}
        />
        {filters.range === 'custom' ? (
          <div role="group" aria-label={t('filters.customRange')}>
            <DatePicker.RangePicker
              showTime={{ format: 'HH:mm' }}
              format="YYYY-MM-DD HH:mm"
              allowClear={false}
              // Without dates yet the picker opens at once; a restored range is shown as its placeholder.
              defaultOpen={filters.customFrom === undefined}
              placeholder={
                filters.customFrom !== undefined && filters.customTo !== undefined
                  ? [formatDateTime(filters.customFrom), formatDateTime(filters.customTo)]
                  : [t('filters.customStart'), t('filters.customEnd')]
              }
              disabledDate={(date) => date.valueOf() > Date.now()}
              onChange={onCustomChange}
            />
          </div>
        ) : null}
        {intervalSelect}
        <Button
          icon={<ReloadOutlined aria-hidden />}
          loading={props.isRefreshing}
          onClick={props.onRefresh}
        >
          {t('filters.refresh')}
        </Button>
      </FilterRow>
      <FilterRow label={t('filters.rows.data')}>
        {props.hasTeamScope ? (
          <>
            <ChoiceGroup
              label={t('filters.scope')}
              value={filters.scope}
              onChange={props.onScopeChange}
              options={REPORT_SCOPES.map((scope) => ({ value: scope, label: t(`scope.${scope}`) }))}
            />
            {filters.scope === 'apikey' ? keySelect(false) : null}
          </>
        ) : (
          keySelect(true)
        )}
        <Select
          aria-label={t('filters.network')}
          style={{ minWidth: 180 }}
          value={filters.chain ?? ALL_NETWORKS}
          onChange={(chain: string) => props.onChainChange(chain || undefined)}
          options={[
            { value: ALL_NETWORKS, label: t('filters.allNetworks') },
            ...props.chains.map((c) => ({ value: c.id, label: c.name })),
          ]}
        />
      </FilterRow>
      <FilterRow label={t('filters.rows.chart')}>
        <ChoiceGroup
          label={t('filters.metric')}
          value={filters.metric}
          onChange={props.onMetricChange}
          options={(['requests', 'ru'] as const).map((m) => ({
            value: m,
            label: t(`metric.${m}`),
          }))}
        />
        <ChoiceGroup
          label={t('filters.stackBy')}
          value={filters.stackBy}
          onChange={props.onStackByChange}
          options={(['apikey', 'network'] as const).map((s) => ({
            value: s,
            label: t(`stackBy.${s}`),
          }))}
        />
      </FilterRow>
    </Flex>
  );
}
