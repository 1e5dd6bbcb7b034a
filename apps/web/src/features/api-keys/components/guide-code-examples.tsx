/**
 * The guide's code examples: the user picks one of their keys and a chain, and every snippet carries that real
 * endpoint. With no key yet, the placeholder key stands in (and says so).
 */
import { MAX_API_KEYS_PER_ACCOUNT } from '@rpc/contract';
import type { TChain } from '@rpc/contract';
import { Alert, Flex, Select, Skeleton, Typography } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiKeys } from '../api/get-api-keys';
import { buildEndpointUrl } from '../utils/endpoint-urls';
import { chainSelectOptions, defaultChainId } from './chain-endpoints';
import { CodeExamples } from './code-examples';

/** The URL with the placeholder left readable (YOUR_API_KEY, not an encoded form of it). */
export function placeholderUrl(template: string, placeholder: string): string {
  return buildEndpointUrl(template, placeholder).replace(
    encodeURIComponent(placeholder),
    placeholder,
  );
}

export function GuideCodeExamples({ chains }: { chains: readonly TChain[] }) {
  const { t } = useTranslation('api-keys');
  const keySelectId = useId();
  const chainSelectId = useId();
  // Every key fits one page: an account has at most MAX_API_KEYS_PER_ACCOUNT.
  const keys = useApiKeys({ page: 1, perPage: MAX_API_KEYS_PER_ACCOUNT });
  const [chosenKeyId, setChosenKeyId] = useState<string | undefined>(undefined);
  const [chosenChainId, setChosenChainId] = useState<string | undefined>(undefined);

  if (keys.isLoading) return <Skeleton active paragraph={{ rows: 4 }} />;
  const list = keys.data?.list ?? [];
  const apiKey = list.find((k) => k.keyId === chosenKeyId) ?? list[0];
  const chainId = chosenChainId ?? defaultChainId(chains);
  const chain = chains.find((c) => c.id === chainId);
  const placeholder = t('guide.keyPlaceholder');
  const url = (template: string) =>
    apiKey ? buildEndpointUrl(template, apiKey.key) : placeholderUrl(template, placeholder);

  return (
    <Flex vertical gap={12}>
      <Typography.Paragraph style={{ margin: 0 }}>{t('guide.examples.text')}</Typography.Paragraph>
      {apiKey ? null : <Alert type="info" showIcon message={t('guide.examples.noKey')} />}
      <Flex gap={12} wrap>
        {apiKey ? (
          <div style={{ flex: '1 1 220px' }}>
            <label htmlFor={keySelectId} style={{ display: 'block', marginBottom: 4 }}>
              {t('guide.examples.key')}
            </label>
            <Select
              id={keySelectId}
              style={{ width: '100%' }}
              value={apiKey.keyId}
              onChange={setChosenKeyId}
              showSearch
              optionFilterProp="label"
              options={list.map((k) => ({ value: k.keyId, label: k.name }))}
            />
          </div>
        ) : null}
        {chains.length > 0 ? (
          <div style={{ flex: '1 1 220px' }}>
            <label htmlFor={chainSelectId} style={{ display: 'block', marginBottom: 4 }}>
              {t('guide.examples.chain')}
            </label>
            <Select
              id={chainSelectId}
              style={{ width: '100%' }}
              value={chainId}
              onChange={setChosenChainId}
              showSearch
              optionFilterProp="title"
              options={chainSelectOptions(chains, t)}
            />
          </div>
        ) : null}
      </Flex>
      {chain && !chain.available ? (
        <Alert type="warning" showIcon message={t('guide.examples.unavailable')} />
      ) : null}
      {chain ? (
        <CodeExamples
          target={{
            httpUrl: url(chain.httpUrlTemplate),
            wsUrl: url(chain.wsUrlTemplate),
            chainId: chain.chainId,
            chainName: chain.name,
          }}
        />
      ) : null}
    </Flex>
  );
}
