/** hub_getMyInvite: invitations waiting for the user's answer. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { TEAMS_QUERY_KEY } from './team-query-keys';

/** Keyed by token: the invitation page works before the profile (and so the user id) is loaded. */
export function myInvitesQueryKey(token: string) {
  return [...TEAMS_QUERY_KEY, token, 'my-invites'] as const;
}

export function getMyInvitesQueryOptions(token: string) {
  return queryOptions({
    queryKey: myInvitesQueryKey(token),
    queryFn: ({ signal }) => callRpc('hub_getMyInvite', {}, { signal }),
  });
}

export function useMyInvites(token: string | null) {
  return useQuery({ ...getMyInvitesQueryOptions(token ?? ''), enabled: !!token });
}
