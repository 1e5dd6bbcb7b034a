/**
 * /rpc/team/logs: a team's audit log (owners and admins: the members permission), newest first, as a SPEC §9
 * paged table with filters by action, member and date range. `?teamId=` opens a team; otherwise the team the
 * console acts for, else the first.
 */
import type { TTeamLog } from '@rpc/contract';
import { roleAllows } from '@rpc/contract';
import type { GetProps, TableColumnsType } from 'antd';
import { Alert, Button, DatePicker, Empty, Flex, Select, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LinkButton } from '../../../components/link-button';
import type { TPaging } from '../../../components/paged-table';
import { PagedTable } from '../../../components/paged-table';
import { formatDateTime } from '../../../lib/format-date-time';
import { PAGE_SIZE_DEFAULT } from '../../../lib/table-pagination';
import { useMyTeams } from '../api/get-my-teams';
import type { TTeamLogsParams } from '../api/get-team-logs';
import { useTeamLogs } from '../api/get-team-logs';
import { useTeamMembers } from '../api/get-team-members';
import { TEAM_LOG_ACTIONS, actionLabel } from '../utils/team-log-actions';
import { RoleTag } from './role-tag';
import { TeamSelect, pickDefaultTeam, useActingTeamId } from './team-select';

type TRangeValue = GetProps<typeof DatePicker.RangePicker>['value'];

type TFilters = {
  action?: string;
  actorUserId?: string;
  /** the picked days, kept as the picker's own values */
  range?: TRangeValue;
};

/** The filters as hub_getTeamLogs params: whole days, from the start of the first to the end of the last. */
export function logFilterParams(filters: TFilters): Partial<TTeamLogsParams> {
  const params: Partial<TTeamLogsParams> = {};
  if (filters.action) params.action = filters.action;
  if (filters.actorUserId) params.actorUserId = filters.actorUserId;
  const [start, end] = filters.range ?? [];
  if (start) params.startTime = start.startOf('day').valueOf();
  if (end) params.endTime = end.endOf('day').valueOf();
  return params;
}

function LabelledField({
  label,
  children,
}: {
  label: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <Flex vertical gap={4} style={{ minWidth: 0, maxWidth: '100%' }}>
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </Flex>
  );
}

function TeamLog({ teamId }: { teamId: string }) {
  const { t } = useTranslation('team');
  const members = useTeamMembers(teamId);
  const [filters, setFilters] = useState<TFilters>({});
  const [paging, setPaging] = useState<TPaging>({ page: 1, perPage: PAGE_SIZE_DEFAULT });
  const logs = useTeamLogs({ teamId, ...paging, ...logFilterParams(filters) }, true);
  const setFilter = (patch: Partial<TFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const columns: TableColumnsType<TTeamLog> = [
    { key: 'time', title: t('logs.time'), render: (_v, log) => formatDateTime(log.createdAt) },
    { key: 'member', title: t('logs.member'), render: (_v, log) => log.actorName || '-' },
    {
      key: 'action',
      title: t('logs.action'),
      render: (_v, log) => <span title={log.action}>{actionLabel(t, log.action)}</span>,
    },
    {
      key: 'target',
      title: t('logs.target'),
      render: (_v, log) => <span style={{ overflowWrap: 'anywhere' }}>{log.target ?? '-'}</span>,
    },
    { key: 'ip', title: t('logs.ip'), render: (_v, log) => log.ip ?? '-' },
  ];

  const actionOptions = TEAM_LOG_ACTIONS.map((action) => {
    const label = actionLabel(t, action);
    return { value: action, label, title: label };
  });
  const memberOptions = (members.data?.list ?? []).map((member) => {
    const label = member.email ? `${member.nickname} (${member.email})` : member.nickname;
    return { value: member.userId, label, title: label };
  });

  return (
    <Flex vertical gap={12}>
      <Flex gap={12} wrap align="flex-end">
        <LabelledField label={t('logs.filterAction')}>
          {(id) => (
            <Select<string>
              id={id}
              allowClear
              showSearch
              optionFilterProp="label"
              placeholder={t('logs.allActions')}
              value={filters.action}
              options={actionOptions}
              onChange={(action) => setFilter({ action })}
              popupMatchSelectWidth={false}
              style={{ minWidth: 200, maxWidth: '100%' }}
            />
          )}
        </LabelledField>
        <LabelledField label={t('logs.filterMember')}>
          {(id) => (
            <Select<string>
              id={id}
              allowClear
              showSearch
              optionFilterProp="label"
              placeholder={t('logs.allMembers')}
              loading={members.isLoading}
              value={filters.actorUserId}
              options={memberOptions}
              onChange={(actorUserId) => setFilter({ actorUserId })}
              popupMatchSelectWidth={false}
              style={{ minWidth: 180, maxWidth: '100%' }}
            />
          )}
        </LabelledField>
        <LabelledField label={t('logs.filterDates')}>
          {(id) => (
            <DatePicker.RangePicker
              id={{ start: id }}
              value={filters.range}
              onChange={(range) => setFilter({ range })}
              allowEmpty={[true, true]}
              placeholder={[t('logs.from'), t('logs.to')]}
              // antd's arrow icon carries an aria-label on a role-less span (axe: aria-prohibited-attr); the two
              // inputs are labelled From and To, so the arrow is decoration.
              separator={<span aria-hidden="true">→</span>}
              style={{ maxWidth: '100%' }}
            />
          )}
        </LabelledField>
      </Flex>
      <PagedTable<TTeamLog>
        label={t('logs.tableLabel')}
        rowKey="id"
        columns={columns}
        rows={logs.data?.list}
        total={logs.data?.total ?? 0}
        paging={paging}
        onPagingChange={setPaging}
        isLoading={logs.isLoading}
        isFetching={logs.isFetching}
        isError={logs.isError}
        onRetry={() => void logs.refetch()}
        emptyText={t('logs.empty')}
        totalText={(total) => t('logs.total', { count: total })}
      />
    </Flex>
  );
}

export function TeamLogsPage() {
  const { t } = useTranslation('team');
  const [searchParams, setSearchParams] = useSearchParams();
  const teams = useMyTeams();
  const actingTeamId = useActingTeamId();
  const list = teams.data?.list ?? [];
  const team = pickDefaultTeam(list, searchParams.get('teamId'), actingTeamId);
  const canRead = team ? roleAllows(team.role, 'members') : false;

  return (
    <section aria-labelledby="page-title">
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={1} id="page-title" style={{ fontSize: 24, margin: 0 }}>
          {t('logs.title')}
        </Typography.Title>
        <LinkButton to="/rpc/team">{t('links.back')}</LinkButton>
      </Flex>
      <Typography.Paragraph type="secondary">{t('logs.description')}</Typography.Paragraph>
      {teams.isLoading ? (
        <div role="status" aria-label={t('loading')}>
          <Skeleton active paragraph={{ rows: 4 }} />
        </div>
      ) : teams.isError && !teams.data ? (
        <Alert
          type="error"
          showIcon
          message={t('teams.loadFailed')}
          action={<Button onClick={() => void teams.refetch()}>{t('actions.retry')}</Button>}
        />
      ) : !team ? (
        <Empty description={t('logs.noTeams')}>
          <LinkButton to="/rpc/team" type="primary">
            {t('logs.toTeams')}
          </LinkButton>
        </Empty>
      ) : (
        <Flex vertical gap={16}>
          <Flex gap={12} align="flex-end" wrap>
            <TeamSelect
              teams={list}
              value={team.teamId}
              onChange={(teamId) => setSearchParams({ teamId }, { replace: true })}
            />
            <RoleTag role={team.role} />
          </Flex>
          {canRead ? (
            <TeamLog key={team.teamId} teamId={team.teamId} />
          ) : (
            <Alert
              type="info"
              showIcon
              message={t('logs.forbiddenTitle')}
              description={t('logs.forbidden', { role: t(`roles.${team.role}`) })}
            />
          )}
        </Flex>
      )}
    </section>
  );
}
