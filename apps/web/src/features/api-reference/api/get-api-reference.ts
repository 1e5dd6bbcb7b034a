/** rpc.discover: the console API's OpenRPC document, read into what the reference page shows. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callDiscover } from '../../../lib/rpc-client';
import { parseOpenRpcDocument } from '../utils/openrpc-document';

export async function getApiReference(signal?: AbortSignal) {
  return parseOpenRpcDocument(await callDiscover({ signal }));
}

export function getApiReferenceQueryOptions() {
  return queryOptions({
    // Not account data: the same document for everyone, and it changes only with a deploy.
    queryKey: ['api-reference'],
    queryFn: ({ signal }) => getApiReference(signal),
    staleTime: 30 * 60_000,
  });
}

export function useApiReference() {
  return useQuery(getApiReferenceQueryOptions());
}
