/**
 * A team's members: who, their role and since when, with what the caller's role allows on each row: changing the
 * role (owner permission; handing the team over asks first) and removing members of a lower rank (members
 * permission).
 */
import type { TTeam, TTeamMember, TTeamRole } from '@rpc/contract';
import { TEAM_ROLES, roleAllows, roleRank } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Alert, Button, Card, Modal, Popconfirm, Select, Table, Tag, message } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format-date-time';
import { useTeamMembers } from '../api/get-team-members';
import { useRemoveMember } from '../api/remove-member';
import { useSetMemberRole } from '../api/set-member-role';
import { RoleTag } from './role-tag';

export function TeamMembersCard({ team }: { team: TTeam }) {
  const { t } = useTranslation('team');
  const members = useTeamMembers(team.teamId);
  const setRole = useSetMemberRole();
  const remove = useRemoveMember();
  const [modal, modalContext] = Modal.useModal();
  const canChangeRoles = roleAllows(team.role, 'owner');
  const canRemove = roleAllows(team.role, 'members');

  const changeRole = async (member: TTeamMember, role: TTeamRole) => {
    try {
      await setRole.mutateAsync({ teamId: team.teamId, userId: member.userId, role });
      void message.success(t('members.roleChanged', { name: member.nickname }));
    } catch {
      // the request client has shown why
    }
  };

  const onRoleChange = (member: TTeamMember, role: TTeamRole) => {
    if (role !== 'owner') {
      void changeRole(member, role);
      return;
    }
    void modal.confirm({
      title: t('members.handOverTitle', { name: member.nickname, team: team.teamName }),
      content: t('members.handOverContent'),
      okText: t('members.handOverOk'),
      cancelText: t('actions.cancel'),
      okButtonProps: { danger: true },
      onOk: () => changeRole(member, role),
    });
  };

  const onRemove = async (member: TTeamMember) => {
    try {
      await remove.mutateAsync({ teamId: team.teamId, userId: member.userId });
      void message.success(t('members.removed', { name: member.nickname }));
    } catch {
      // the request client has shown why
    }
  };

  /** Acting on a member needs a higher rank than theirs, never on oneself. */
  const outranks = (member: TTeamMember) =>
    !member.isYou && roleRank(member.role) < roleRank(team.role);

  const columns: TableColumnsType<TTeamMember> = [
    {
      key: 'name',
      title: t('members.name'),
      render: (_v, member) => (
        <span>
          {member.nickname}
          {member.isYou ? <Tag style={{ marginInlineStart: 8 }}>{t('members.you')}</Tag> : null}
        </span>
      ),
    },
    { key: 'email', title: t('members.email'), render: (_v, member) => member.email ?? '-' },
    {
      key: 'role',
      title: t('members.role'),
      render: (_v, member) =>
        canChangeRoles && outranks(member) ? (
          <Select<TTeamRole>
            size="small"
            value={member.role}
            aria-label={t('members.roleOf', { name: member.nickname })}
            options={TEAM_ROLES.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
            onChange={(role) => onRoleChange(member, role)}
            popupMatchSelectWidth={false}
            style={{ minWidth: 110 }}
          />
        ) : (
          <RoleTag role={member.role} />
        ),
    },
    {
      key: 'joined',
      title: t('members.joined'),
      render: (_v, member) => formatDateTime(member.joinedAt),
    },
  ];
  if (canRemove) {
    columns.push({
      key: 'actions',
      title: t('members.actions'),
      render: (_v, member) =>
        outranks(member) ? (
          <Popconfirm
            title={t('members.removeTitle', { name: member.nickname })}
            description={t('members.removeDescription', { team: team.teamName })}
            okText={t('members.remove')}
            cancelText={t('actions.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => onRemove(member)}
          >
            <Button
              type="link"
              size="small"
              danger
              aria-label={t('members.removeLabel', { name: member.nickname })}
            >
              {t('members.remove')}
            </Button>
          </Popconfirm>
        ) : null,
    });
  }

  return (
    <Card
      title={
        <h3 id={`members-${team.teamId}`} style={{ margin: 0, fontSize: 16 }}>
          {t('members.title')}
        </h3>
      }
      role="region"
      aria-labelledby={`members-${team.teamId}`}
    >
      {modalContext}
      {members.isError && !members.data ? (
        <Alert
          type="error"
          showIcon
          message={t('members.loadFailed')}
          action={<Button onClick={() => void members.refetch()}>{t('actions.retry')}</Button>}
        />
      ) : (
        <Table<TTeamMember>
          rowKey="userId"
          columns={columns}
          dataSource={members.data?.list ?? []}
          loading={members.isLoading || members.isFetching}
          locale={{ emptyText: members.isLoading ? t('loading') : t('members.empty') }}
          pagination={false}
          scroll={{ x: 'max-content' }}
          size="middle"
        />
      )}
    </Card>
  );
}
