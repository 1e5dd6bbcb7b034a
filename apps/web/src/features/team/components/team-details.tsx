/**
 * One team as the user's role in it allows: its name and note (editable with the members permission), members,
 * invitations, the audit log link, and the way out: leave (anyone but the owner) or disband (the owner).
 */
import { DeleteOutlined, EditOutlined, LogoutOutlined, ProfileOutlined } from '@ant-design/icons';
import type { TTeam } from '@rpc/contract';
import { roleAllows } from '@rpc/contract';
import { Button, Card, Descriptions, Flex, Modal, Typography, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { useLeaveActingTeam } from '../../../lib/acting-account';
import { formatDateTime } from '../../../lib/format-date-time';
import { useDeleteTeam } from '../api/delete-team';
import { useEditTeam } from '../api/edit-team';
import { useLeaveTeam } from '../api/leave-team';
import { DisbandTeamModal } from './disband-team-modal';
import { RoleTag } from './role-tag';
import { TeamFormModal } from './team-form-modal';
import { TeamInvitesCard } from './team-invites-card';
import { TeamMembersCard } from './team-members-card';
import { useActingTeamId } from './team-select';

export function TeamDetails({ team, onGone }: { team: TTeam; onGone: () => void }) {
  const { t } = useTranslation('team');
  const actingTeamId = useActingTeamId();
  const leaveActingTeam = useLeaveActingTeam();
  const edit = useEditTeam();
  const leave = useLeaveTeam();
  const disband = useDeleteTeam();
  const [modal, modalContext] = Modal.useModal();
  const [isEditing, setIsEditing] = useState(false);
  const [isDisbanding, setIsDisbanding] = useState(false);
  const canManage = roleAllows(team.role, 'members');
  const isOwner = roleAllows(team.role, 'owner');
  const titleId = `team-${team.teamId}`;

  /** The team is gone for this user: if the console acted for it, the acting account resets too. */
  const afterGone = async () => {
    onGone();
    if (team.teamId === actingTeamId) await leaveActingTeam();
  };

  const onLeave = () => {
    void modal.confirm({
      title: t('leave.title', { name: team.teamName }),
      content: t('leave.content'),
      okText: t('leave.ok'),
      cancelText: t('actions.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await leave.mutateAsync(team.teamId);
        } catch {
          return; // the request client has shown why
        }
        void message.success(t('leave.done', { name: team.teamName }));
        await afterGone();
      },
    });
  };

  const onDisband = async () => {
    await disband.mutateAsync(team.teamId);
    void message.success(t('disband.done', { name: team.teamName }));
    await afterGone();
  };

  return (
    <Flex vertical gap={16}>
      {modalContext}
      <Card
        role="region"
        aria-labelledby={titleId}
        title={
          <Flex gap={8} align="center" wrap>
            <h2 id={titleId} style={{ margin: 0, fontSize: 18, overflowWrap: 'anywhere' }}>
              {team.teamName}
            </h2>
            <RoleTag role={team.role} />
          </Flex>
        }
        extra={
          <Flex gap={8} wrap>
            {canManage ? (
              <Button icon={<EditOutlined aria-hidden />} onClick={() => setIsEditing(true)}>
                {t('edit.button')}
              </Button>
            ) : null}
            {canManage ? (
              <LinkButton
                to={`/rpc/team/logs?teamId=${encodeURIComponent(team.teamId)}`}
                icon={<ProfileOutlined aria-hidden />}
              >
                {t('links.logs')}
              </LinkButton>
            ) : null}
            {isOwner ? (
              <Button
                danger
                icon={<DeleteOutlined aria-hidden />}
                onClick={() => setIsDisbanding(true)}
              >
                {t('disband.button')}
              </Button>
            ) : (
              <Button danger icon={<LogoutOutlined aria-hidden />} onClick={onLeave}>
                {t('leave.button')}
              </Button>
            )}
          </Flex>
        }
      >
        <Descriptions size="small" column={{ xs: 1, sm: 2 }}>
          <Descriptions.Item label={t('details.note')} span={2}>
            {team.note ? (
              <Typography.Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {team.note}
              </Typography.Text>
            ) : (
              <Typography.Text type="secondary">{t('details.noNote')}</Typography.Text>
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('details.owner')}>{team.ownerName}</Descriptions.Item>
          <Descriptions.Item label={t('details.members')}>{team.memberCount}</Descriptions.Item>
          <Descriptions.Item label={t('details.created')}>
            {formatDateTime(team.createdAt)}
          </Descriptions.Item>
          <Descriptions.Item label={t('details.joined')}>
            {formatDateTime(team.joinedAt)}
          </Descriptions.Item>
        </Descriptions>
        {isOwner ? (
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            {t('leave.ownerHint')}
          </Typography.Paragraph>
        ) : null}
      </Card>
      <TeamMembersCard team={team} />
      {canManage ? <TeamInvitesCard teamId={team.teamId} callerRole={team.role} /> : null}
      {isEditing ? (
        <TeamFormModal
          title={t('edit.title', { name: team.teamName })}
          okText={t('edit.ok')}
          initial={{ teamName: team.teamName, note: team.note }}
          onSubmit={async (values) => {
            await edit.mutateAsync({
              teamId: team.teamId,
              ...(values.teamName !== team.teamName ? { teamName: values.teamName } : {}),
              ...(values.note !== team.note ? { note: values.note } : {}),
            });
            void message.success(t('edit.done'));
          }}
          onClose={() => setIsEditing(false)}
        />
      ) : null}
      {isDisbanding ? (
        <DisbandTeamModal
          team={team}
          onConfirm={onDisband}
          onClose={() => setIsDisbanding(false)}
        />
      ) : null}
    </Flex>
  );
}
