/** hub_getSupportTickets: one page of the acting account's tickets, newest first. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useActingAccountKey } from '../../../lib/acting-account';
import { callRpc } from '../../../lib/rpc-client';

export type TTicketsPaging = { page: number; perPage: number };

/** Every ticket list lives under this key; filing a ticket invalidates it. */
export const SUPPORT_TICKETS_QUERY_KEY = ['support', 'tickets'] as const;

export function getSupportTickets(paging: TTicketsPaging, signal?: AbortSignal) {
  return callRpc('hub_getSupportTickets', paging, { signal });
}

export function getSupportTicketsQueryOptions(paging: TTicketsPaging, account: string) {
  return queryOptions({
    queryKey: [...SUPPORT_TICKETS_QUERY_KEY, account, paging],
    queryFn: ({ signal }) => getSupportTickets(paging, signal),
    placeholderData: keepPreviousData,
  });
}

export function useSupportTickets(paging: TTicketsPaging, isEnabled = true) {
  return useQuery({
    ...getSupportTicketsQueryOptions(paging, useActingAccountKey()),
    enabled: isEnabled,
  });
}
