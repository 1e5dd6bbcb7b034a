/** hub_getBanner: the operator's banner live now for the page's language, or null. */
import { ZBannerSchema, type TBanner, type TLanguage } from '@rpc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useActingAccountKey } from '../../../lib/acting-account';
import { callRpc } from '../../../lib/rpc-client';

export const BANNER_QUERY_KEY = ['support', 'banner'] as const;
/** Banners change rarely: look again every few minutes, not on every focus. */
const BANNER_STALE_MS = 5 * 60_000;

/** The banner, or null; an answer that is not a banner counts as none (a banner must never break a page). */
export async function getBanner(
  language: TLanguage,
  signal?: AbortSignal,
): Promise<TBanner | null> {
  const answer = await callRpc('hub_getBanner', { language }, { signal, hideError: true });
  const parsed = ZBannerSchema.nullable().safeParse(answer);
  return parsed.success ? parsed.data : null;
}

export function getBannerQueryOptions(language: TLanguage, account: string) {
  return queryOptions({
    queryKey: [...BANNER_QUERY_KEY, account, language],
    queryFn: ({ signal }) => getBanner(language, signal),
    staleTime: BANNER_STALE_MS,
    refetchInterval: BANNER_STALE_MS,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

export function useBanner(language: TLanguage) {
  return useQuery(getBannerQueryOptions(language, useActingAccountKey()));
}
