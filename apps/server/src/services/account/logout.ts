import type { TResult } from '@rpc/contract';
import { sessions } from '@rpc/db';
import { eq } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';

type TOptions = Pick<TRpcContext, 'db' | 'clock' | 'noticeBus'> & { auth: TAuth };

/** Revokes (not deletes) the session, so its token answers 10103 from now on; its notice sockets close. */
export async function logout(o: TOptions): Promise<TResult<'hub_logout'>> {
  await o.db
    .update(sessions)
    .set({ revokedAt: new Date(o.clock.now()) })
    .where(eq(sessions.id, o.auth.sessionId));
  o.noticeBus.endSessions([o.auth.sessionId]);
  return { success: true };
}
