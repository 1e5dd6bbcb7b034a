/**
 * The teams' part of SPEC §4, wired by the app at start: a team_remove_member or team_disband notice about a team
 * the console does not act for refreshes the session profile's team list and every team query.
 */
import type { QueryClient } from '@tanstack/react-query';
import { setNoticeReactions } from '../../../lib/notices';
import { onTeamsChanged } from './team-query-keys';

export function wireTeams(queryClient: QueryClient): () => void {
  return setNoticeReactions({ refreshTeamList: () => onTeamsChanged(queryClient) });
}
