/** hub_getEnterpriseInfo: how to get an enterprise package (contact and features). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export function getEnterpriseInfo(signal?: AbortSignal) {
  return callRpc('hub_getEnterpriseInfo', {}, { signal });
}

export function getEnterpriseInfoQueryOptions(scope: string) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, 'enterprise'],
    queryFn: ({ signal }) => getEnterpriseInfo(signal),
  });
}

export function useEnterpriseInfo(enabled: boolean) {
  return useQuery({ ...getEnterpriseInfoQueryOptions(useWalletScope()), enabled });
}
