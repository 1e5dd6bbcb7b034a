/**
 * /rpc/team: the user's teams (hub_getMyTeam) with the user's role in each, creating a team, the user's own code
 * for being invited, and one team managed at a time (by default the team the console acts for, else the first).
 */
import { PlusOutlined } from '@ant-design/icons';
import type { TTeam } from '@rpc/contract';
import type { TableColumnsType } from 'antd';
import { Alert, Button, Card, Empty, Flex, Skeleton, Tag, Typography, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import type { TPaging } from '../../../components/paged-table';
import { PagedTable } from '../../../components/paged-table';
import { useSession } from '../../../lib/session';
import { PAGE_SIZE_DEFAULT } from '../../../lib/table-pagination';
import { useCreateTeam } from '../api/create-team';
import { useMyTeams } from '../api/get-my-teams';
import { RoleTag } from './role-tag';
import { TeamDetails } from './team-details';
import { TeamFormModal } from './team-form-modal';
import { pickDefaultTeam, useActingTeamId } from './team-select';
import { UserCodeCard } from './user-code-card';

export function TeamPage() {
  const { t } = useTranslation('team');
  const teams = useMyTeams();
  const create = useCreateTeam();
  const actingTeamId = useActingTeamId();
  const hasInvite = useSession((s) => !!s.user?.hasInvite);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [isCreating, setIsCreating] = useState(false);
  const [paging, setPaging] = useState<TPaging>({ page: 1, perPage: PAGE_SIZE_DEFAULT });

  const list = teams.data?.list ?? [];
  const selected = pickDefaultTeam(list, chosenId, actingTeamId);
  const rows = list.slice((paging.page - 1) * paging.perPage, paging.page * paging.perPage);

  const columns: TableColumnsType<TTeam> = [
    {
      key: 'name',
      title: t('teams.name'),
      render: (_v, team) => (
        <span style={{ overflowWrap: 'anywhere' }}>
          {team.teamName}
          {team.teamId === actingTeamId ? (
            <Tag color="processing" style={{ marginInlineStart: 8 }}>
              {t('teams.acting')}
            </Tag>
          ) : null}
        </span>
      ),
    },
    { key: 'role', title: t('teams.role'), render: (_v, team) => <RoleTag role={team.role} /> },
    { key: 'members', title: t('teams.members'), dataIndex: 'memberCount', align: 'right' },
    { key: 'owner', title: t('teams.owner'), dataIndex: 'ownerName' },
    {
      key: 'manage',
      title: t('teams.actions'),
      render: (_v, team) => {
        const isSelected = team.teamId === selected?.teamId;
        return (
          <Button
            size="small"
            type={isSelected ? 'primary' : 'default'}
            aria-pressed={isSelected}
            aria-label={t('teams.manageLabel', { name: team.teamName })}
            onClick={() => setChosenId(team.teamId)}
          >
            {isSelected ? t('teams.managing') : t('teams.manage')}
          </Button>
        );
      },
    },
  ];

  const createButton = (
    <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setIsCreating(true)}>
      {t('create.button')}
    </Button>
  );

  return (
    <section aria-labelledby="page-title">
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={1} id="page-title" style={{ fontSize: 24, margin: 0 }}>
          {t('list.title')}
        </Typography.Title>
        {createButton}
      </Flex>
      <Flex vertical gap={16}>
        {hasInvite ? (
          <Alert
            type="info"
            showIcon
            message={t('invitesBanner.message')}
            action={
              <LinkButton to="/invite-member" size="small" type="primary">
                {t('invitesBanner.action')}
              </LinkButton>
            }
          />
        ) : null}
        <Card
          title={
            <h2 id="teams-title" style={{ margin: 0, fontSize: 16 }}>
              {t('teams.title')}
            </h2>
          }
          role="region"
          aria-labelledby="teams-title"
        >
          {teams.isLoading ? (
            <div role="status" aria-label={t('loading')}>
              <Skeleton active paragraph={{ rows: 3 }} />
            </div>
          ) : teams.isError && !teams.data ? (
            <Alert
              type="error"
              showIcon
              message={t('teams.loadFailed')}
              action={<Button onClick={() => void teams.refetch()}>{t('actions.retry')}</Button>}
            />
          ) : list.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('teams.empty')}>
              {createButton}
            </Empty>
          ) : (
            <PagedTable<TTeam>
              label={t('teams.title')}
              rowKey="teamId"
              columns={columns}
              rows={rows}
              total={list.length}
              paging={paging}
              onPagingChange={setPaging}
              isLoading={false}
              isFetching={teams.isFetching}
              isError={false}
              onRetry={() => void teams.refetch()}
              emptyText={t('teams.empty')}
              totalText={(total) => t('teams.total', { count: total })}
            />
          )}
        </Card>
        <UserCodeCard />
        {selected ? (
          <TeamDetails key={selected.teamId} team={selected} onGone={() => setChosenId(null)} />
        ) : null}
      </Flex>
      {isCreating ? (
        <TeamFormModal
          title={t('create.title')}
          okText={t('create.ok')}
          onSubmit={async (values) => {
            const team = await create.mutateAsync(values);
            void message.success(t('create.done', { name: team.teamName }));
            setChosenId(team.teamId);
          }}
          onClose={() => setIsCreating(false)}
        />
      ) : null}
    </section>
  );
}
