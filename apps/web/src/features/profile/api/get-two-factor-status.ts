/** hub_getTwoFactorStatus: whether two-factor sign-in is on, since when, and how many backup codes are left. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function getTwoFactorStatusQueryOptions() {
  return queryOptions({
    queryKey: ['two-factor-status'],
    queryFn: ({ signal }) => callRpc('hub_getTwoFactorStatus', {}, { signal }),
  });
}

export function useTwoFactorStatus() {
  return useQuery(getTwoFactorStatusQueryOptions());
}
