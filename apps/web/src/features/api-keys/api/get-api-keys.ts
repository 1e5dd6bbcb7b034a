/** hub_getApiKeys: one page of the acting account's keys, newest first, optionally searched. */
import type { TParamsIn } from '@rpc/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export type TApiKeysParams = { page: number; perPage: number; search?: string };

/** Every api-keys query (list pages and single keys) lives under this key; mutations invalidate it. */
export const API_KEYS_QUERY_KEY = ['api-keys'] as const;

export function getApiKeys(params: TApiKeysParams, signal?: AbortSignal) {
  const body: TParamsIn<'hub_getApiKeys'> = { page: params.page, perPage: params.perPage };
  if (params.search) body.search = params.search;
  return callRpc('hub_getApiKeys', body, { signal });
}

export function getApiKeysQueryOptions(params: TApiKeysParams) {
  return queryOptions({
    queryKey: [...API_KEYS_QUERY_KEY, 'list', params],
    queryFn: ({ signal }) => getApiKeys(params, signal),
    // Paging keeps the previous page on screen until the next one arrives (no flashing skeleton).
    placeholderData: keepPreviousData,
  });
}

export function useApiKeys(params: TApiKeysParams) {
  return useQuery(getApiKeysQueryOptions(params));
}
