/** A team's pending invitations, each with a way to withdraw it, and the form for a new one (members permission). */
import type { TTeamInvite, TTeamRole } from '@rpc/contract';
import { INVITE_TTL_DAYS } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Alert, Button, Card, Divider, Popconfirm, Table, Typography, message } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format-date-time';
import { useCancelInvite } from '../api/cancel-invite';
import { useTeamInvites } from '../api/get-team-invites';
import { InviteForm } from './invite-form';
import { RoleTag } from './role-tag';

export function TeamInvitesCard({ teamId, callerRole }: { teamId: string; callerRole: TTeamRole }) {
  const { t } = useTranslation('team');
  const invites = useTeamInvites(teamId, true);
  const cancel = useCancelInvite();
  const titleId = `invites-${teamId}`;

  const onCancel = async (invite: TTeamInvite) => {
    try {
      await cancel.mutateAsync({ teamId, inviteId: invite.inviteId });
      void message.success(t('invites.cancelled', { invitee: invite.invitee }));
    } catch {
      // the request client has shown why
    }
  };

  const columns: TableColumnsType<TTeamInvite> = [
    { key: 'invitee', title: t('invites.invitee'), dataIndex: 'invitee' },
    {
      key: 'role',
      title: t('invites.role'),
      render: (_v, invite) => <RoleTag role={invite.role} />,
    },
    { key: 'by', title: t('invites.invitedBy'), dataIndex: 'invitedBy' },
    {
      key: 'expires',
      title: t('invites.expires'),
      render: (_v, invite) => formatDateTime(invite.expiresAt),
    },
    {
      key: 'actions',
      title: t('invites.actions'),
      render: (_v, invite) => (
        <Popconfirm
          title={t('invites.cancelTitle', { invitee: invite.invitee })}
          okText={t('invites.cancel')}
          cancelText={t('actions.keep')}
          okButtonProps={{ danger: true }}
          onConfirm={() => onCancel(invite)}
        >
          <Button
            type="link"
            size="small"
            danger
            aria-label={t('invites.cancelLabel', { invitee: invite.invitee })}
          >
            {t('invites.cancel')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Card
      title={
        <h3 id={titleId} style={{ margin: 0, fontSize: 16 }}>
          {t('invites.title')}
        </h3>
      }
      role="region"
      aria-labelledby={titleId}
    >
      <Typography.Paragraph type="secondary">
        {t('invites.description', { days: INVITE_TTL_DAYS })}
      </Typography.Paragraph>
      <InviteForm teamId={teamId} callerRole={callerRole} />
      <Divider style={{ margin: '8px 0 16px' }} />
      <Typography.Title level={4} style={{ fontSize: 15 }}>
        {t('invites.pending')}
      </Typography.Title>
      {invites.isError && !invites.data ? (
        <Alert
          type="error"
          showIcon
          message={t('invites.loadFailed')}
          action={<Button onClick={() => void invites.refetch()}>{t('actions.retry')}</Button>}
        />
      ) : (
        <Table<TTeamInvite>
          rowKey="inviteId"
          columns={columns}
          dataSource={invites.data?.list ?? []}
          loading={invites.isLoading || invites.isFetching}
          locale={{ emptyText: invites.isLoading ? t('loading') : t('invites.empty') }}
          pagination={false}
          scroll={{ x: 'max-content' }}
          size="small"
        />
      )}
    </Card>
  );
}
