/**
 * The feature-info screen of SPEC §2 for one key: archive mode, MEV protection and bundler, each with what it
 * does, what every option means and which chains support it.
 */
import type { TApiKey, TChain } from '@rpc/contract';
import { BUNDLER_PROVIDERS, MEV_MODES } from '@rpc/contract';
import { Descriptions, Flex, Select, Switch, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetApiKeyAdvancedFeatures } from '../api/set-api-key-advanced-features';
import { useSetApiKeyBundler } from '../api/set-api-key-bundler';
import { useSetApiKeyMev } from '../api/set-api-key-mev';

type TFeature = TChain['features'][number];

function SupportedOn({ chains, feature }: { chains: readonly TChain[]; feature: TFeature }) {
  const { t } = useTranslation('api-keys');
  const names = chains.filter((c) => c.features.includes(feature)).map((c) => c.name);
  return (
    <Typography.Text type="secondary">
      {names.length > 0
        ? t('features.supportedOn', { chains: names.join(', ') })
        : t('features.supportedOnNone')}
    </Typography.Text>
  );
}

function FeatureBlock({
  title,
  controlId,
  control,
  description,
  options,
  chains,
  feature,
}: {
  title: string;
  controlId: string;
  control: ReactNode;
  description: string;
  options?: { label: string; text: string }[];
  chains: readonly TChain[];
  feature: TFeature;
}) {
  return (
    <section aria-labelledby={`${controlId}-title`}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Title level={4} id={`${controlId}-title`} style={{ margin: 0, fontSize: 16 }}>
          <label htmlFor={controlId}>{title}</label>
        </Typography.Title>
        {control}
      </Flex>
      <Typography.Paragraph style={{ marginTop: 8, marginBottom: 4 }}>
        {description}
      </Typography.Paragraph>
      {options ? (
        <Descriptions
          size="small"
          column={1}
          items={options.map((o) => ({ key: o.label, label: o.label, children: o.text }))}
        />
      ) : null}
      <SupportedOn chains={chains} feature={feature} />
    </section>
  );
}

export function AdvancedFeatures({
  apiKey,
  chains,
}: {
  apiKey: TApiKey;
  chains: readonly TChain[];
}) {
  const { t } = useTranslation('api-keys');
  const archiveId = useId();
  const mevId = useId();
  const bundlerId = useId();
  const setFeature = useSetApiKeyAdvancedFeatures();
  const setMev = useSetApiKeyMev();
  const setBundler = useSetApiKeyBundler();
  const ignore = () => undefined; // the request client has shown the error

  const mevLabel = (mode: (typeof MEV_MODES)[number]) =>
    t(`features.mev.options.${mode || 'normal'}`);

  return (
    <Flex vertical gap={20}>
      <FeatureBlock
        title={t('features.archive.title')}
        controlId={archiveId}
        feature="archive"
        chains={chains}
        description={t('features.archive.description')}
        control={
          <Switch
            id={archiveId}
            checked={apiKey.archiveMode}
            loading={setFeature.isPending}
            onChange={(enabled) =>
              setFeature
                .mutateAsync({ keyId: apiKey.keyId, feature: 'archive_mode', enabled })
                .catch(ignore)
            }
          />
        }
      />
      <FeatureBlock
        title={t('features.mev.title')}
        controlId={mevId}
        feature="mev"
        chains={chains}
        description={t('features.mev.description')}
        options={MEV_MODES.map((mode) => ({
          label: mevLabel(mode),
          text: t(`features.mev.explain.${mode || 'normal'}`),
        }))}
        control={
          <Select
            id={mevId}
            style={{ minWidth: 180 }}
            value={apiKey.mev}
            loading={setMev.isPending}
            onChange={(mev) => setMev.mutateAsync({ keyId: apiKey.keyId, mev }).catch(ignore)}
            options={MEV_MODES.map((mode) => ({ value: mode, label: mevLabel(mode) }))}
          />
        }
      />
      <FeatureBlock
        title={t('features.bundler.title')}
        controlId={bundlerId}
        feature="bundler"
        chains={chains}
        description={t('features.bundler.description')}
        options={BUNDLER_PROVIDERS.map((p) => ({
          label: t(`features.bundler.options.${p}`),
          text: t(`features.bundler.explain.${p}`),
        }))}
        control={
          <Select
            id={bundlerId}
            style={{ minWidth: 180 }}
            value={apiKey.bundler}
            loading={setBundler.isPending}
            onChange={(bundler) =>
              setBundler.mutateAsync({ keyId: apiKey.keyId, bundler }).catch(ignore)
            }
            options={BUNDLER_PROVIDERS.map((p) => ({
              value: p,
              label: t(`features.bundler.options.${p}`),
            }))}
          />
        }
      />
    </Flex>
  );
}
