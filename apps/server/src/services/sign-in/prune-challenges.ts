/**
 * Expired sign-in challenges (SIWE nonces, OAuth states and registration tickets, mailed bind codes) are useless a
 * moment after they expire; they are kept a day for support questions, then deleted by the hourly prune.
 */
import { authChallenges, type TDatabase } from '@rpc/db';
import { lt } from 'drizzle-orm';

export const CHALLENGE_KEEP_MS = 86_400_000;

export async function pruneAuthChallenges(db: TDatabase, now: number): Promise<number> {
  const gone = await db
    .delete(authChallenges)
    .where(lt(authChallenges.expiresAt, new Date(now - CHALLENGE_KEEP_MS)))
    .returning({ id: authChallenges.id });
  return gone.length;
}
