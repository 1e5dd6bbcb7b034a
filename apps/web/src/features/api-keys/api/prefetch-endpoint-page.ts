/**
 * What /rpc/endpoint asks for on its first screen, started as soon as the user is let in (app/routes/route-table.tsx),
 * beside the page's code rather than after it: this module and what it imports are all the request needs (the query
 * options and the request client), so it loads without the console's and antd's files (apps/web/chunk-groups.ts) and
 * the answers are in the cache when the page first renders.
 */
import type { QueryClient } from '@tanstack/react-query';
import { PAGE_SIZE_DEFAULT } from '../../../lib/table-pagination';
import { getApiKeyNeedUpgradeQueryOptions } from './get-api-key-need-upgrade';
import { getApiKeysQueryOptions } from './get-api-keys';
import { getSupportChainsQueryOptions } from './get-support-chains';

export const ENDPOINT_TABS = ['keys', 'limits', 'guide', 'logs'] as const;
export type TEndpointTab = (typeof ENDPOINT_TABS)[number];

export function isEndpointTab(value: string | null): value is TEndpointTab {
  return (ENDPOINT_TABS as readonly (string | null)[]).includes(value);
}

/** The keys table's first page: what the page shows first and what is prefetched. */
export const FIRST_KEYS_PAGE = { page: 1, perPage: PAGE_SIZE_DEFAULT };

export function prefetchEndpointPage(queryClient: QueryClient, search: URLSearchParams): void {
  void queryClient.prefetchQuery(getApiKeyNeedUpgradeQueryOptions());
  void queryClient.prefetchQuery(getSupportChainsQueryOptions());
  const tab = search.get('tab');
  if (!isEndpointTab(tab) || tab === 'keys') {
    void queryClient.prefetchQuery(getApiKeysQueryOptions(FIRST_KEYS_PAGE));
  }
}
