/** hub_getPureApiKeys for the ticket form's "which key" picker (id and name only). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useActingAccountKey } from '../../../lib/acting-account';
import { callRpc } from '../../../lib/rpc-client';

export function getTicketApiKeysQueryOptions(account: string) {
  return queryOptions({
    queryKey: ['support', 'api-keys', account],
    queryFn: ({ signal }) => callRpc('hub_getPureApiKeys', {}, { signal, hideError: true }),
  });
}

export function useTicketApiKeys(isEnabled: boolean) {
  return useQuery({ ...getTicketApiKeysQueryOptions(useActingAccountKey()), enabled: isEnabled });
}
