/** POST /upload/avatar's work once the file is read: re-encode, store (one row per user), point the profile at it. */
import type { TUploadAvatarResult } from '@rpc/contract';
import { userAvatars, users } from '@rpc/db';
import { eq } from 'drizzle-orm';
import type { TDeps } from '../../rpc/context';
import { reencodeAvatar } from './avatar-image';
import { avatarUrl } from './avatar-url';

export async function saveAvatar(
  o: Pick<TDeps, 'db' | 'clock'> & { userId: string; bytes: Buffer },
): Promise<TUploadAvatarResult> {
  // Decoded before the transaction: the CPU work holds no connection and no lock.
  const avatar = await reencodeAvatar(o.bytes);
  const now = new Date(o.clock.now());
  const url = avatarUrl(o.userId, avatar.sha256);
  await o.db.transaction(async (tx) => {
    const values = {
      image: avatar.image,
      contentType: avatar.contentType,
      sha256: avatar.sha256,
      updatedAt: now,
    };
    await tx
      .insert(userAvatars)
      .values({ userId: o.userId, ...values })
      .onConflictDoUpdate({ target: userAvatars.userId, set: values });
    await tx.update(users).set({ avatar: url, updatedAt: now }).where(eq(users.id, o.userId));
  });
  return { avatar: url };
}
