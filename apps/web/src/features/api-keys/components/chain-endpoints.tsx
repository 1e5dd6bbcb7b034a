/** Per-chain HTTPS and WSS URLs of a key, from the catalogue's templates, with copy buttons and code examples. */
import type { TChain } from '@rpc/contract';
import { Alert, Flex, Input, Select, Skeleton, Space } from 'antd';
import { useId, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { buildEndpointUrl } from '../utils/endpoint-urls';
import { CopyButton } from '../../../components/copy-button';
import { CodeExamples } from './code-examples';

/** The first available chain, localnet first when present (it works with no configuration). */
export function defaultChainId(chains: readonly TChain[]): string | undefined {
  const available = chains.filter((c) => c.available);
  return (available.find((c) => c.id === 'localnet') ?? available[0] ?? chains[0])?.id;
}

/** The chain picker's options: name and network, unavailable chains shown but not choosable. */
export function chainSelectOptions(chains: readonly TChain[], t: TFunction<'api-keys'>) {
  return chains.map((c) => ({
    value: c.id,
    title: c.name,
    disabled: !c.available,
    label: c.available
      ? `${c.name} · ${t(`network.${c.network}`)}`
      : `${c.name} · ${t(`network.${c.network}`)} — ${t('endpoints.unavailable')}`,
  }));
}

function UrlRow({ label, url, copyLabel }: { label: string; url: string; copyLabel: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 4 }}>
        {label}
      </label>
      <Space.Compact style={{ width: '100%' }}>
        <Input id={id} readOnly value={url} onFocus={(e) => e.target.select()} />
        <CopyButton text={url} label={copyLabel} />
      </Space.Compact>
    </div>
  );
}

export function ChainEndpoints({
  apiKey,
  chains,
  isLoading,
}: {
  apiKey: string;
  chains: readonly TChain[];
  isLoading: boolean;
}) {
  const { t } = useTranslation('api-keys');
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const selectId = useId();
  if (isLoading) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (chains.length === 0) return <Alert type="info" showIcon message={t('endpoints.noChains')} />;

  const chainId = chosen ?? defaultChainId(chains);
  const chain = chains.find((c) => c.id === chainId);
  const httpsUrl = chain ? buildEndpointUrl(chain.httpUrlTemplate, apiKey) : '';
  const wssUrl = chain ? buildEndpointUrl(chain.wsUrlTemplate, apiKey) : '';

  return (
    <Flex vertical gap={12}>
      <div>
        <label htmlFor={selectId} style={{ display: 'block', marginBottom: 4 }}>
          {t('endpoints.chain')}
        </label>
        <Select
          id={selectId}
          style={{ width: '100%' }}
          value={chainId}
          onChange={setChosen}
          showSearch
          optionFilterProp="title"
          options={chainSelectOptions(chains, t)}
        />
      </div>
      {chain && !chain.available ? (
        <Alert type="warning" showIcon message={t('endpoints.unavailableReason')} />
      ) : null}
      {chain && chain.available ? (
        <>
          <UrlRow
            label={t('endpoints.https')}
            url={httpsUrl}
            copyLabel={t('endpoints.copyHttps')}
          />
          <UrlRow label={t('endpoints.wss')} url={wssUrl} copyLabel={t('endpoints.copyWss')} />
          <CodeExamples
            target={{
              httpUrl: httpsUrl,
              ...(wssUrl ? { wsUrl: wssUrl } : {}),
              chainId: chain.chainId,
              chainName: chain.name,
            }}
          />
        </>
      ) : null}
    </Flex>
  );
}
