/** Choose methods, monthly calls, archive and peak rate: RUs per month and the smallest tier that serves it. */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { TChain, TResult } from '@rpc/contract';
import { Alert, Button, Flex, InputNumber, Select, Statistic, Switch, Typography } from 'antd';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TTier } from '../../../lib/limit-info';
import type { TCostLine } from '../utils/cost-calculator';
import { estimateCost } from '../utils/cost-calculator';

type TLine = TCostLine & { id: number };

export function CostCalculator({
  ruTable,
  tiers,
  chains,
  formatNumber,
}: {
  ruTable: TResult<'hub_getRuTable'>;
  tiers: readonly TTier[];
  chains: readonly TChain[];
  formatNumber: (n: number) => string;
}) {
  const { t } = useTranslation('api-keys');
  const ids = { archive: useId(), peak: useId(), chain: useId() };
  const prices = useMemo(
    () => new Map(ruTable.methods.map((m) => [m.method, m.ru] as const)),
    [ruTable.methods],
  );
  const firstMethod =
    ruTable.methods.find((m) => m.method === 'eth_call')?.method ??
    ruTable.methods[0]?.method ??
    '';
  const [lines, setLines] = useState<TLine[]>([
    { id: 1, method: firstMethod, callsPerMonth: 1_000_000 },
  ]);
  const [archive, setArchive] = useState(false);
  const [peak, setPeak] = useState(10);
  const [chainId, setChainId] = useState<string | undefined>(undefined);
  const chain = chains.find((c) => c.id === chainId);

  const estimate = estimateCost({
    lines,
    prices,
    archive,
    archiveSurchargePercent: ruTable.rules.archiveSurchargePercent,
    multiplier: chain?.ruMultiplier ?? 1,
    peakReqPerSec: peak,
    tiers,
  });

  const methodOptions = ruTable.methods.map((m) => ({
    value: m.method,
    label: `${m.method} (${m.ru} RU)`,
  }));
  const update = (id: number, patch: Partial<TCostLine>) =>
    setLines((prev) => prev.map((line) => (line.id === id ? { ...line, ...patch } : line)));

  return (
    <Flex vertical gap={12}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('calculator.intro')}
      </Typography.Paragraph>
      {lines.map((line, index) => (
        <Flex key={line.id} gap={8} wrap align="center">
          <Select
            aria-label={t('calculator.method', { n: index + 1 })}
            showSearch
            style={{ minWidth: 280 }}
            value={line.method}
            options={methodOptions}
            onChange={(method) => update(line.id, { method })}
          />
          <InputNumber<number>
            aria-label={t('calculator.calls', { n: index + 1 })}
            min={0}
            step={100_000}
            style={{ width: 200 }}
            value={line.callsPerMonth}
            formatter={(v) => (v === undefined ? '' : formatNumber(Number(v)))}
            parser={(v) => Number((v ?? '').replace(/[^\d]/g, '')) || 0}
            onChange={(v) => update(line.id, { callsPerMonth: v ?? 0 })}
          />
          <Typography.Text type="secondary">
            {t('calculator.lineRu', {
              perCall: formatNumber(
                estimate.lines.find((l) => l.method === line.method)?.ruPerCall ?? 0,
              ),
            })}
          </Typography.Text>
          <Button
            type="text"
            icon={<DeleteOutlined aria-hidden />}
            aria-label={t('calculator.removeLine', { n: index + 1 })}
            disabled={lines.length === 1}
            onClick={() => setLines((prev) => prev.filter((l) => l.id !== line.id))}
          />
        </Flex>
      ))}
      <div>
        <Button
          icon={<PlusOutlined aria-hidden />}
          onClick={() =>
            setLines((prev) => [
              ...prev,
              {
                id: Math.max(0, ...prev.map((l) => l.id)) + 1,
                method: firstMethod,
                callsPerMonth: 0,
              },
            ])
          }
        >
          {t('calculator.addLine')}
        </Button>
      </div>
      <Flex gap={24} wrap align="center">
        <Flex gap={8} align="center">
          <Switch id={ids.archive} checked={archive} onChange={setArchive} />
          <label htmlFor={ids.archive}>{t('calculator.archive')}</label>
        </Flex>
        <Flex gap={8} align="center">
          <label htmlFor={ids.peak}>{t('calculator.peak')}</label>
          <InputNumber<number>
            id={ids.peak}
            min={0}
            value={peak}
            onChange={(v) => setPeak(v ?? 0)}
          />
        </Flex>
        {chains.length > 0 ? (
          <Flex gap={8} align="center">
            <label htmlFor={ids.chain}>{t('calculator.chain')}</label>
            <Select
              id={ids.chain}
              style={{ minWidth: 200 }}
              allowClear
              placeholder={t('calculator.anyChain')}
              value={chainId}
              onChange={setChainId}
              options={chains.map((c) => ({
                value: c.id,
                label: `${c.name} (×${c.ruMultiplier})`,
              }))}
            />
          </Flex>
        ) : null}
      </Flex>
      <Flex gap={32} wrap aria-live="polite">
        <Statistic
          title={t('calculator.totalRu')}
          value={estimate.totalRuPerMonth}
          formatter={(v) => formatNumber(Number(v))}
        />
        <Statistic
          title={t('calculator.peakRu')}
          value={estimate.peakRuPerSec}
          formatter={(v) => formatNumber(Number(v))}
        />
        <Statistic
          title={t('calculator.minimumTier')}
          value={estimate.minimumTier?.name ?? t('calculator.noTier')}
        />
      </Flex>
      {estimate.minimumTier === null && tiers.length > 0 ? (
        <Alert type="warning" showIcon message={t('calculator.noTierHint')} />
      ) : null}
      <Typography.Text type="secondary">{t('calculator.sizeNote')}</Typography.Text>
    </Flex>
  );
}
