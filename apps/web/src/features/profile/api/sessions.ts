/** The user's sessions (hub_getSessions) and signing them out (hub_revokeSession, hub_revokeOtherSessions). */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export function getSessionsQueryOptions() {
  return queryOptions({
    queryKey: ['sessions'],
    queryFn: ({ signal }) => callRpc('hub_getSessions', {}, { signal }),
  });
}

export function useSessions() {
  return useQuery(getSessionsQueryOptions());
}

export function revokeSession(sessionId: string) {
  return callRpc('hub_revokeSession', { sessionId });
}

export function revokeOtherSessions() {
  return callRpc('hub_revokeOtherSessions', {});
}

function useSessionsRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(getSessionsQueryOptions());
}

export function useRevokeSession() {
  const refresh = useSessionsRefresh();
  return useMutation({ mutationFn: revokeSession, onSuccess: refresh });
}

export function useRevokeOtherSessions() {
  const refresh = useSessionsRefresh();
  return useMutation({ mutationFn: revokeOtherSessions, onSuccess: refresh });
}
