/** hub_getUserDnNodeView: one SPEC §9 page of the acting account's nodes, newest first, optionally of one status. */
import type { TDnStatus } from '@rpc/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { DN_QUERY_KEY, NODES_KEY_PART, useDnScope } from './dn-query-keys';

export type TDnStatusFilter = TDnStatus | 'all';
export type TDnNodesParams = { page: number; perPage: number; status: TDnStatusFilter };

/** While a node on the page is being set up, the page is asked again this often to show it come online. */
export const PENDING_REFRESH_MS = 15_000;

export function getDnNodes(params: TDnNodesParams, signal?: AbortSignal) {
  return callRpc(
    'hub_getUserDnNodeView',
    { page: params.page, perPage: params.perPage, status: params.status },
    { signal },
  );
}

export function getDnNodesQueryOptions(scope: string, params: TDnNodesParams) {
  return queryOptions({
    queryKey: [...DN_QUERY_KEY, scope, NODES_KEY_PART, params],
    queryFn: ({ signal }) => getDnNodes(params, signal),
    // Paging and filtering keep the previous rows on screen until the next ones arrive.
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.list.some((node) => node.status === 'pending') ? PENDING_REFRESH_MS : false,
  });
}

export function useDnNodes(params: TDnNodesParams) {
  return useQuery(getDnNodesQueryOptions(useDnScope(), params));
}
