/** "Sessions": where the account is signed in, with sign-out of one session or of every other one. */
import type { TResult } from '@rpc/contract';
import { Alert, Button, Flex, Popconfirm, Skeleton, Table, Tag, Typography, message } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFocusableScrollBox } from '../../../components/paged-table';
import { useOauthProviders } from '../../../components/sign-in/oauth-sign-in-buttons';
import { TAG_STYLE } from '../../../components/tag-styles';
import { formatDateTime } from '../../../lib/format-date-time';
import { WALLET_PROVIDER_ID } from '../../../lib/wallet';
import { useRevokeOtherSessions, useRevokeSession, useSessions } from '../api/sessions';
import { describeUserAgent } from '../utils/describe-user-agent';
import { ProfileSection } from './profile-section';

type TSession = TResult<'hub_getSessions'>['list'][number];

/** Longest raw user agent shown when no browser or system is recognised (the tooltip has all of it). */
const RAW_AGENT_CHARS = 40;

function DeviceCell({ session }: { session: TSession }) {
  const { t } = useTranslation('profile');
  const { browser, os } = describeUserAgent(session.userAgent);
  const raw = session.userAgent ?? '';
  const shortRaw = raw.length > RAW_AGENT_CHARS ? `${raw.slice(0, RAW_AGENT_CHARS)}…` : raw;
  const text =
    browser && os
      ? t('sessions.device', { browser, os })
      : (browser ?? os ?? (shortRaw || t('sessions.unknownDevice')));
  return (
    <Flex gap={8} align="center" wrap>
      {/* the whole user agent on hover, for the curious */}
      <span title={raw || undefined}>{text}</span>
      {session.current && <Tag style={TAG_STYLE.blue}>{t('sessions.thisDevice')}</Tag>}
    </Flex>
  );
}

export function SessionsSection() {
  const { t } = useTranslation('profile');
  const sessions = useSessions();
  const providers = useOauthProviders();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const boxRef = useFocusableScrollBox();
  const list = sessions.data?.list ?? [];
  const hasOthers = list.some((session) => !session.current);

  const methodName = (method: string) =>
    method === 'password'
      ? t('sessions.method.password')
      : method === WALLET_PROVIDER_ID
        ? t('sessions.method.wallet')
        : (providers.find((provider) => provider.id === method)?.name ?? method);

  async function onRevoke(session: TSession) {
    try {
      await revoke.mutateAsync(session.id);
      void message.success(t('sessions.revoked'));
    } catch {
      // the client has shown the popup
    }
  }

  async function onRevokeOthers() {
    try {
      const { revoked } = await revokeOthers.mutateAsync();
      void message.success(t('sessions.othersRevoked', { count: revoked }));
    } catch {
      // the client has shown the popup
    }
  }

  const columns: TableColumnsType<TSession> = [
    {
      key: 'device',
      title: t('sessions.columns.device'),
      render: (_value, session) => <DeviceCell session={session} />,
    },
    { key: 'ip', title: t('sessions.columns.ip'), render: (_value, session) => session.ip ?? '-' },
    {
      key: 'createdAt',
      title: t('sessions.columns.signedIn'),
      render: (_value, session) => formatDateTime(session.createdAt),
    },
    {
      key: 'lastSeenAt',
      title: t('sessions.columns.lastActive'),
      render: (_value, session) => formatDateTime(session.lastSeenAt),
    },
    {
      key: 'method',
      title: t('sessions.columns.method'),
      render: (_value, session) => methodName(session.method),
    },
    {
      key: 'actions',
      title: t('sessions.columns.actions'),
      render: (_value, session) =>
        session.current ? null : (
          <Popconfirm
            title={t('sessions.revokeTitle')}
            description={t('sessions.revokeDescription')}
            okText={t('sessions.revoke')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => onRevoke(session)}
          >
            <Button type="link" size="small" danger>
              {t('sessions.revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <ProfileSection title={t('sessions.title')}>
      {sessions.isLoading ? (
        <div role="status" aria-label={t('sessions.loading')}>
          <Skeleton active paragraph={{ rows: 3 }} />
        </div>
      ) : !sessions.data ? (
        <Alert
          type="error"
          showIcon
          message={t('sessions.loadFailed')}
          action={<Button onClick={() => void sessions.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <Flex vertical gap={16}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('sessions.intro')}
          </Typography.Paragraph>
          <div role="region" aria-label={t('sessions.title')} ref={boxRef}>
            <Table<TSession>
              rowKey="id"
              size="small"
              columns={columns}
              dataSource={list}
              pagination={false}
              scroll={{ x: 'max-content' }}
            />
          </div>
          <div>
            <Popconfirm
              title={t('sessions.revokeOthersTitle')}
              description={t('sessions.revokeOthersDescription')}
              okText={t('sessions.revokeOthers')}
              cancelText={t('common.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={onRevokeOthers}
              disabled={!hasOthers}
            >
              <Button danger disabled={!hasOthers}>
                {t('sessions.revokeOthers')}
              </Button>
            </Popconfirm>
          </div>
        </Flex>
      )}
    </ProfileSection>
  );
}
