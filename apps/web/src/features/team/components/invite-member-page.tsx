/**
 * /invite-member (public, SPEC §2): signed out, a way to sign in (and come back) or register; signed in, the
 * invitations waiting for the user, each to accept or decline. After accepting, the user may switch to the team.
 */
import { MailOutlined } from '@ant-design/icons';
import type { TMyInvite, TTeamRole } from '@rpc/contract';
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  Popconfirm,
  Result,
  Skeleton,
  Typography,
  message,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { useSwitchAccount } from '../../../lib/acting-account';
import { formatDateTime } from '../../../lib/format-date-time';
import { useSession } from '../../../lib/session';
import { useApproveInvite, useRejectInvite } from '../api/answer-invite';
import { useMyInvites } from '../api/get-my-invites';
import { RoleTag } from './role-tag';

export const INVITE_PAGE_PATH = '/invite-member';

type TJoined = { teamId: string; teamName: string; role: TTeamRole };

function SignedOut() {
  const { t } = useTranslation('team');
  return (
    <Result
      icon={<MailOutlined aria-hidden />}
      title={<h1 style={{ fontSize: 24, margin: 0 }}>{t('inviteMember.title')}</h1>}
      subTitle={t('inviteMember.signedOut')}
      extra={
        <Flex gap={8} wrap justify="center">
          <LinkButton to={`/?redirect=${encodeURIComponent(INVITE_PAGE_PATH)}`} type="primary">
            {t('inviteMember.signIn')}
          </LinkButton>
          <LinkButton to="/register">{t('inviteMember.register')}</LinkButton>
        </Flex>
      }
    />
  );
}

function InviteCard({
  invite,
  isBusy,
  onAccept,
  onDecline,
}: {
  invite: TMyInvite;
  isBusy: boolean;
  onAccept: () => void;
  onDecline: () => Promise<void>;
}) {
  const { t } = useTranslation('team');
  const titleId = `invite-${invite.inviteId}`;
  return (
    <li>
      <Card size="small" role="article" aria-labelledby={titleId}>
        <Flex vertical gap={8}>
          <Flex gap={8} align="center" wrap>
            <Typography.Text strong id={titleId} style={{ fontSize: 16, overflowWrap: 'anywhere' }}>
              {invite.teamName}
            </Typography.Text>
            <RoleTag role={invite.role} />
          </Flex>
          <Typography.Text type="secondary">
            {t('inviteMember.invitedBy', { name: invite.invitedBy })}
          </Typography.Text>
          <Typography.Text type="secondary">
            {t('inviteMember.expires', { date: formatDateTime(invite.expiresAt) })}
          </Typography.Text>
          <Flex gap={8} wrap>
            <Button
              type="primary"
              disabled={isBusy}
              onClick={onAccept}
              aria-label={t('inviteMember.acceptLabel', { team: invite.teamName })}
            >
              {t('inviteMember.accept')}
            </Button>
            <Popconfirm
              title={t('inviteMember.declineTitle', { team: invite.teamName })}
              okText={t('inviteMember.decline')}
              cancelText={t('actions.cancel')}
              onConfirm={onDecline}
            >
              <Button
                disabled={isBusy}
                aria-label={t('inviteMember.declineLabel', { team: invite.teamName })}
              >
                {t('inviteMember.decline')}
              </Button>
            </Popconfirm>
          </Flex>
        </Flex>
      </Card>
    </li>
  );
}

function MyInvites({ token }: { token: string }) {
  const { t } = useTranslation('team');
  const invites = useMyInvites(token);
  const approve = useApproveInvite();
  const reject = useRejectInvite();
  const switchAccount = useSwitchAccount();
  const [joined, setJoined] = useState<TJoined | null>(null);
  const isBusy = approve.isPending || reject.isPending;

  const onAccept = async (invite: TMyInvite) => {
    try {
      setJoined(await approve.mutateAsync(invite.inviteId));
    } catch {
      // the request client has shown why (expired, cancelled …); the list reloads
    }
  };

  const onDecline = async (invite: TMyInvite) => {
    try {
      await reject.mutateAsync(invite.inviteId);
      void message.success(t('inviteMember.declined', { team: invite.teamName }));
    } catch {
      // the request client has shown why
    }
  };

  if (joined) {
    return (
      <Result
        status="success"
        title={t('inviteMember.joined', { team: joined.teamName })}
        subTitle={t('inviteMember.joinedRole', { role: t(`roles.${joined.role}`) })}
        extra={
          <Flex gap={8} wrap justify="center">
            <Button
              type="primary"
              onClick={() => switchAccount({ kind: 'team', teamId: joined.teamId })}
            >
              {t('inviteMember.switch')}
            </Button>
            {(invites.data?.list.length ?? 0) > 0 ? (
              <Button onClick={() => setJoined(null)}>{t('inviteMember.more')}</Button>
            ) : (
              <LinkButton to="/rpc/team">{t('inviteMember.toTeams')}</LinkButton>
            )}
          </Flex>
        }
      />
    );
  }

  if (invites.isLoading) {
    return (
      <div role="status" aria-label={t('loading')}>
        <Skeleton active paragraph={{ rows: 3 }} />
      </div>
    );
  }
  if (invites.isError && !invites.data) {
    return (
      <Alert
        type="error"
        showIcon
        message={t('inviteMember.loadFailed')}
        action={<Button onClick={() => void invites.refetch()}>{t('actions.retry')}</Button>}
      />
    );
  }
  const list = invites.data?.list ?? [];
  if (list.length === 0) {
    return (
      <Empty description={t('inviteMember.empty')}>
        <LinkButton to="/rpc/team">{t('inviteMember.toTeams')}</LinkButton>
      </Empty>
    );
  }
  return (
    <Flex
      vertical
      gap={12}
      component="ul"
      aria-label={t('inviteMember.listLabel')}
      style={{ listStyle: 'none', margin: 0, padding: 0 }}
    >
      {list.map((invite) => (
        <InviteCard
          key={invite.inviteId}
          invite={invite}
          isBusy={isBusy}
          onAccept={() => void onAccept(invite)}
          onDecline={() => onDecline(invite)}
        />
      ))}
    </Flex>
  );
}

export function InviteMemberPage() {
  const { t } = useTranslation('team');
  const token = useSession((s) => s.token);
  if (!token) return <SignedOut />;
  return (
    <section
      aria-labelledby="page-title"
      style={{ maxWidth: 640, margin: '0 auto', width: '100%' }}
    >
      <Typography.Title level={1} id="page-title" style={{ fontSize: 24 }}>
        {t('inviteMember.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('inviteMember.description')}</Typography.Paragraph>
      <MyInvites token={token} />
    </section>
  );
}
