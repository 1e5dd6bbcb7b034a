/** hub_getTeamLogs: one page of a team's audit log, newest first, with the filters of the logs screen. */
import type { TParamsIn } from '@rpc/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { teamQueryKey, useTeamsScope } from './team-query-keys';

export type TTeamLogsParams = TParamsIn<'hub_getTeamLogs'> & { page: number; perPage: number };

export function getTeamLogs(params: TTeamLogsParams, signal?: AbortSignal) {
  return callRpc('hub_getTeamLogs', params, { signal });
}

export function getTeamLogsQueryOptions(scope: string, params: TTeamLogsParams) {
  return queryOptions({
    queryKey: [...teamQueryKey(scope, params.teamId), 'logs', params],
    queryFn: ({ signal }) => getTeamLogs(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useTeamLogs(params: TTeamLogsParams, isEnabled: boolean) {
  return useQuery({ ...getTeamLogsQueryOptions(useTeamsScope(), params), enabled: isEnabled });
}
