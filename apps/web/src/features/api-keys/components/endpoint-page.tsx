/**
 * /rpc/endpoint: the account's API keys with their endpoints and features, the rate limits and RU costs, the
 * gateway's guide and each key's request log. `?tab=limits`, `?tab=guide` and `?tab=logs` (with `&key=<keyId>`)
 * open those tabs (the overview's documentation links, the key drawer's "View request log").
 */
import { PlusOutlined } from '@ant-design/icons';
import type { TApiKey } from '@rpc/contract';
import { Alert, Button, Empty, Flex, Input, Skeleton, Tabs, Typography, message } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useTwoFactorPrompt } from '../../../components/two-factor-prompt';
import { useCan } from '../../../lib/acting-account';
import { formatNumber as formatLangNumber } from '../../../lib/format-number';
import { useLocale } from '../../../lib/i18n';
import { useApiKeyNeedUpgrade } from '../api/get-api-key-need-upgrade';
import { useApiKeys } from '../api/get-api-keys';
import { useSupportChains } from '../api/get-support-chains';
import { FIRST_KEYS_PAGE, isEndpointTab, type TEndpointTab } from '../api/prefetch-endpoint-page';
import { useCreateApiKey } from '../api/create-api-key';
import { useDeleteApiKey } from '../api/delete-api-key';
import { useRenameApiKey } from '../api/rename-api-key';
import { useUpdateApiKey } from '../api/update-api-key';
import { ApiKeyDrawer } from './api-key-drawer';
import { ApiKeyNameModal } from './api-key-name-modal';
import { ApiKeysTable } from './api-keys-table';
import { GatewayGuide } from './gateway-guide';
import { RateLimitsSection } from './rate-limits-section';
import { RequestLogTab } from './request-log-tab';

function UpgradeHint() {
  const { t } = useTranslation('api-keys');
  const { data } = useApiKeyNeedUpgrade();
  if (!data?.needUpgrade) return null;
  return (
    <Alert
      type="info"
      showIcon
      closable
      message={t('upgrade.title', { tier: data.tier })}
      description={(data.reasons ?? []).map((reason) => t(`upgrade.reasons.${reason}`)).join(' ')}
    />
  );
}

function KeysTab({
  formatNumber,
  onViewLog,
}: {
  formatNumber: (n: number) => string;
  onViewLog: (keyId: string) => void;
}) {
  const { t } = useTranslation('api-keys');
  const [paging, setPaging] = useState(FIRST_KEYS_PAGE);
  const [search, setSearch] = useState('');
  // The drawer keeps showing its key while it slides out, so open and key are separate.
  const [openKey, setOpenKey] = useState<TApiKey | null>(null);
  const [isDrawerOpen, setDrawerOpen] = useState(false);
  const onOpen = (key: TApiKey) => {
    setOpenKey(key);
    setDrawerOpen(true);
  };
  const [isCreating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<TApiKey | null>(null);
  const keys = useApiKeys({ ...paging, ...(search ? { search } : {}) });
  const createKey = useCreateApiKey();
  const renameKey = useRenameApiKey();
  const updateKey = useUpdateApiKey();
  const deleteKey = useDeleteApiKey();
  const twoFactor = useTwoFactorPrompt();
  // A team role without the keys permission (billing, viewer) sees the keys but cannot change them.
  const canEdit = useCan('keys');

  const list = keys.data?.list ?? [];
  const total = keys.data?.total ?? 0;
  const isEmpty = !keys.isLoading && !keys.isError && total === 0 && !search;

  const onCreate = async (name: string) => {
    await createKey.mutateAsync({ name });
    void message.success(t('create.success'));
    // Newest first: the new key is on page 1 of the unfiltered list.
    setSearch('');
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const onTogglePause = (key: TApiKey) =>
    updateKey
      .mutateAsync({ keyId: key.keyId, paused: !key.paused })
      .then((saved) => void message.success(saved.paused ? t('pause.paused') : t('pause.resumed')))
      .catch(() => undefined);

  const onDelete = async (key: TApiKey) => {
    // With two-factor sign-in on, the server asks for a code first (10219); the prompt retries with it.
    await twoFactor.withTwoFactor((twoFactorCode) =>
      deleteKey.mutateAsync({ keyId: key.keyId, ...(twoFactorCode ? { twoFactorCode } : {}) }),
    );
    void message.success(t('delete.success'));
    if (openKey?.keyId === key.keyId) setDrawerOpen(false);
    // The last key of a page gone: show the page before it.
    if (list.length === 1 && paging.page > 1) setPaging((p) => ({ ...p, page: p.page - 1 }));
  };

  const createButton = (label: string) =>
    canEdit ? (
      <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setCreating(true)}>
        {label}
      </Button>
    ) : null;

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" gap={12} wrap>
        <Input.Search
          aria-label={t('search.label')}
          placeholder={t('search.placeholder')}
          allowClear
          style={{ maxWidth: 320 }}
          onSearch={(value) => {
            setSearch(value.trim());
            setPaging((p) => ({ ...p, page: 1 }));
          }}
        />
        {createButton(t('create.button'))}
      </Flex>
      {keys.isLoading ? (
        <div role="status" aria-label={t('loading')}>
          <Skeleton active paragraph={{ rows: 5 }} />
        </div>
      ) : isEmpty ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={canEdit ? t('empty.description') : t('empty.readOnly')}
        >
          {createButton(t('empty.action'))}
        </Empty>
      ) : keys.isError && !keys.data ? (
        <Alert
          type="error"
          showIcon
          message={t('loadFailed')}
          action={<Button onClick={() => void keys.refetch()}>{t('retry')}</Button>}
        />
      ) : (
        <ApiKeysTable
          keys={list}
          total={total}
          page={paging.page}
          perPage={paging.perPage}
          isLoading={keys.isFetching}
          formatNumber={formatNumber}
          onPageChange={(page, perPage) =>
            setPaging((p) => ({ page: perPage === p.perPage ? page : 1, perPage }))
          }
          onOpen={onOpen}
          onRename={setRenaming}
          onTogglePause={(key) => void onTogglePause(key)}
          onDelete={onDelete}
          canEdit={canEdit}
        />
      )}
      {isCreating ? (
        <ApiKeyNameModal
          open
          title={t('create.title')}
          okText={t('create.ok')}
          onSubmit={onCreate}
          onClose={() => setCreating(false)}
        />
      ) : null}
      {renaming ? (
        <ApiKeyNameModal
          open
          title={t('rename.title')}
          okText={t('rename.ok')}
          initialName={renaming.name}
          onSubmit={async (name) => {
            await renameKey.mutateAsync({ keyId: renaming.keyId, name });
            void message.success(t('rename.success'));
          }}
          onClose={() => setRenaming(null)}
        />
      ) : null}
      <ApiKeyDrawer
        isOpen={isDrawerOpen}
        keyId={openKey?.keyId ?? null}
        fallback={openKey}
        onClose={() => setDrawerOpen(false)}
        onViewLog={(keyId) => {
          setDrawerOpen(false);
          onViewLog(keyId);
        }}
      />
      {twoFactor.prompt}
    </Flex>
  );
}

export function EndpointPage() {
  const { t } = useTranslation(['api-keys', 'request-log']);
  const { lang } = useLocale();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: TEndpointTab = isEndpointTab(requested) ? requested : 'keys';
  const chains = useSupportChains();
  const onTabChange = (next: string) =>
    setSearchParams(
      (params) => {
        if (next === 'keys') params.delete('tab');
        else params.set('tab', next);
        params.delete('key');
        return params;
      },
      { replace: true },
    );
  const onViewLog = (keyId: string) =>
    setSearchParams(
      (params) => {
        params.set('tab', 'logs');
        params.set('key', keyId);
        return params;
      },
      { replace: true },
    );
  const formatNumber = useCallback((n: number) => formatLangNumber(n, lang), [lang]);
  return (
    <section aria-labelledby="page-title">
      <Typography.Title level={1} id="page-title" style={{ fontSize: 24 }}>
        {t('title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('description')}</Typography.Paragraph>
      <Flex vertical gap={16}>
        <UpgradeHint />
        <Tabs
          activeKey={tab}
          onChange={onTabChange}
          items={[
            {
              key: 'keys',
              label: t('tabs.keys'),
              children: <KeysTab formatNumber={formatNumber} onViewLog={onViewLog} />,
            },
            {
              key: 'limits',
              label: t('tabs.limits'),
              children: <RateLimitsSection formatNumber={formatNumber} />,
            },
            {
              key: 'guide',
              label: t('tabs.guide'),
              children: <GatewayGuide chains={chains.data?.list ?? []} />,
            },
            {
              key: 'logs',
              label: t('request-log:tab'),
              // Mounted while shown only: it asks for the log when opened, not with the keys.
              children:
                tab === 'logs' ? (
                  <RequestLogTab
                    key={searchParams.get('key') ?? ''}
                    initialKeyId={searchParams.get('key')}
                    formatNumber={formatNumber}
                  />
                ) : null,
            },
          ]}
        />
      </Flex>
    </section>
  );
}
