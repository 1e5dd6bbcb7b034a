/** hub_getApiKeyRequestLogs: one page of a key's request log, newest first, for the endpoint page's log tab. */
import type { TParamsIn, TRequestLogFilter } from '@rpc/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useActingAccountKey } from '../../../lib/acting-account';
import { callRpc } from '../../../lib/rpc-client';
import { API_KEYS_QUERY_KEY } from './get-api-keys';

export type TRequestLogParams = {
  keyId: string;
  page: number;
  perPage: number;
  method?: string;
  outcome: TRequestLogFilter;
  /** epoch ms; none: the whole retention */
  from?: number;
};

export function getApiKeyRequestLogs(params: TRequestLogParams, signal?: AbortSignal) {
  const body: TParamsIn<'hub_getApiKeyRequestLogs'> = {
    keyId: params.keyId,
    page: params.page,
    perPage: params.perPage,
    outcome: params.outcome,
  };
  if (params.method) body.method = params.method;
  if (params.from !== undefined) body.from = params.from;
  return callRpc('hub_getApiKeyRequestLogs', body, { signal });
}

/** Under the api-keys key (a deleted key's log goes with it) and the acting account (caches never mix). */
export function getApiKeyRequestLogsQueryOptions(account: string, params: TRequestLogParams) {
  return queryOptions({
    queryKey: [...API_KEYS_QUERY_KEY, 'request-logs', account, params],
    queryFn: ({ signal }) => getApiKeyRequestLogs(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useApiKeyRequestLogs(params: TRequestLogParams | null) {
  const account = useActingAccountKey();
  return useQuery({
    ...getApiKeyRequestLogsQueryOptions(
      account,
      params ?? { keyId: '', page: 1, perPage: 5, outcome: 'all' },
    ),
    enabled: params !== null,
  });
}
