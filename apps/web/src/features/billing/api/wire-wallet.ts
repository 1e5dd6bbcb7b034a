/**
 * The wallet's part of SPEC §4, wired by the app at start: a deposit notice refreshes the wallet and the deposit
 * lists (lib/notices flags the list stale; this invalidates the queries), and sign-in loads the overview.
 */
import type { QueryClient } from '@tanstack/react-query';
import { setNoticeReactions } from '../../../lib/notices';
import { onLoadAccountData } from '../../../lib/session';
import { getWalletOverviewQueryOptions } from './get-wallet-overview';
import { invalidateWallet, walletScope } from './wallet-query-key';

export function wireWallet(queryClient: QueryClient): () => void {
  const restoreReactions = setNoticeReactions({
    refreshWallet: () => invalidateWallet(queryClient),
  });
  // prefetchQuery never throws: a failed load shows on the billing page, where it is asked again.
  const offLoad = onLoadAccountData((state) =>
    queryClient.prefetchQuery(getWalletOverviewQueryOptions(walletScope(state))),
  );
  return () => {
    restoreReactions();
    offLoad();
  };
}
