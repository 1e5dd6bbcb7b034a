import type { TResult } from '@rpc/contract';
import { userAvatars, users } from '@rpc/db';
import { eq } from 'drizzle-orm';
import type { TUserUpdateOptions } from './update-user';

/** The caller's own avatar only (the session's user, whatever team it acts for); none is no error. */
export async function removeAvatar(o: TUserUpdateOptions): Promise<TResult<'hub_removeAvatar'>> {
  const now = new Date(o.clock.now());
  await o.db.transaction(async (tx) => {
    await tx.delete(userAvatars).where(eq(userAvatars.userId, o.auth.userId));
    await tx.update(users).set({ avatar: null, updatedAt: now }).where(eq(users.id, o.auth.userId));
  });
  return { success: true };
}
