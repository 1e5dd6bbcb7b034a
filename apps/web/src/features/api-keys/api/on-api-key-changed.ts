/** Shared tail of every key mutation: the answer is the updated key; every api-keys query refreshes. */
import type { TApiKey } from '@rpc/contract';
import type { QueryClient } from '@tanstack/react-query';
import { getApiKeyQueryOptions } from './get-api-key';
import { API_KEYS_QUERY_KEY } from './get-api-keys';

export async function onApiKeyChanged(queryClient: QueryClient, key?: TApiKey): Promise<void> {
  if (key) queryClient.setQueryData(getApiKeyQueryOptions(key.keyId).queryKey, key);
  await queryClient.invalidateQueries({ queryKey: API_KEYS_QUERY_KEY });
}
