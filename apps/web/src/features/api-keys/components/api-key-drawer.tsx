/** A key's detail: endpoint URLs per chain, advanced features, allowlists. Ant Design's Drawer traps focus and closes on Esc. */
import type { TApiKey } from '@rpc/contract';
import { Alert, Button, ConfigProvider, Drawer, Flex, Skeleton, Tabs, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/acting-account';
import { useApiKey } from '../api/get-api-key';
import { useSupportChains } from '../api/get-support-chains';
import { AdvancedFeatures } from './advanced-features';
import { AllowlistsEditor } from './allowlists-editor';
import { ChainEndpoints } from './chain-endpoints';

export function ApiKeyDrawer({
  isOpen,
  keyId,
  fallback,
  onClose,
  onViewLog,
}: {
  isOpen: boolean;
  keyId: string | null;
  /** the row the drawer was opened from, shown until the key's own query answers */
  fallback: TApiKey | null;
  onClose: () => void;
  /** opens the endpoint page's request log on this key */
  onViewLog?: (keyId: string) => void;
}) {
  const { t } = useTranslation(['api-keys', 'request-log']);
  const detail = useApiKey(isOpen ? keyId : null);
  const chains = useSupportChains();
  const apiKey = detail.data ?? fallback;
  const chainList = chains.data?.list ?? [];
  // A team role without the keys permission sees the settings, every control disabled, and why.
  const canEdit = useCan('keys');
  const settings = (node: ReactNode) =>
    canEdit ? (
      node
    ) : (
      <Flex vertical gap={12}>
        <Alert type="info" showIcon message={t('empty.readOnly')} />
        <ConfigProvider componentDisabled>{node}</ConfigProvider>
      </Flex>
    );

  return (
    <Drawer
      open={isOpen && keyId !== null}
      onClose={onClose}
      width={720}
      styles={{ wrapper: { maxWidth: '100vw' } }}
      title={
        apiKey ? (
          <span>
            {apiKey.name} {apiKey.paused ? <Tag color="orange">{t('status.paused')}</Tag> : null}
          </span>
        ) : (
          t('drawer.title')
        )
      }
      closeIcon={<span aria-label={t('drawer.close')}>×</span>}
      extra={
        apiKey && onViewLog ? (
          <Button type="link" onClick={() => onViewLog(apiKey.keyId)}>
            {t('request-log:viewLog')}
          </Button>
        ) : null
      }
    >
      {!apiKey ? (
        <Skeleton active />
      ) : (
        <Tabs
          items={[
            {
              key: 'endpoints',
              label: t('drawer.endpoints'),
              children: (
                <ChainEndpoints
                  apiKey={apiKey.key}
                  chains={chainList}
                  isLoading={chains.isLoading}
                />
              ),
            },
            {
              key: 'features',
              label: t('drawer.features'),
              children: settings(<AdvancedFeatures apiKey={apiKey} chains={chainList} />),
            },
            {
              key: 'allowlists',
              label: t('drawer.allowlists'),
              // keyed by the saved lists so a save (or another key) starts the editor afresh
              children: settings(
                <AllowlistsEditor
                  key={`${apiKey.keyId}:${JSON.stringify(apiKey.allowlists)}`}
                  apiKey={apiKey}
                />,
              ),
            },
          ]}
        />
      )}
    </Drawer>
  );
}
