/**
 * What follows a session (SPEC §4): the notice socket with its popups, the wallet and team reactions, the limit
 * info. main.tsx loads this chunk once a session exists (and the session module waits for it before its hooks
 * run), so the sign-in page does not carry it.
 */
import type { QueryClient } from '@tanstack/react-query';
import { showNoticePopup } from '../components/notice-popup';
import { wireWallet } from '../features/billing/api/wire-wallet';
import { wireTeams } from '../features/team/api/wire-teams';
// Registers the limit-info load on the after-login seam (SPEC §4).
import '../lib/limit-info';
import { wireNotices } from '../lib/notices';

export function wireSessionFeatures(queryClient: QueryClient): void {
  // SPEC §4: the notice socket and unread notices follow the session; each notice pops up.
  wireNotices({ show: showNoticePopup });
  // SPEC §4: a deposit notice refreshes the wallet queries; sign-in loads the wallet overview.
  wireWallet(queryClient);
  // SPEC §4: a team removal or disband notice about another team refreshes the team list and team queries.
  wireTeams(queryClient);
}
