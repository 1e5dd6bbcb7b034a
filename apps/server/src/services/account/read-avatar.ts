/** GET /avatar/:userId's lookup: the stored image of a user, or null (none, or not a user id at all). */
import { userAvatars, type TDatabase } from '@rpc/db';
import { eq } from 'drizzle-orm';

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type TStoredAvatar = { image: Buffer; contentType: string; sha256: string };

export async function readAvatar(db: TDatabase, userId: string): Promise<TStoredAvatar | null> {
  // Checked before the query: a malformed id is a 404, not a uuid cast error.
  if (!UUID_SHAPE.test(userId)) return null;
  const [row] = await db
    .select({
      image: userAvatars.image,
      contentType: userAvatars.contentType,
      sha256: userAvatars.sha256,
    })
    .from(userAvatars)
    .where(eq(userAvatars.userId, userId.toLowerCase()))
    .limit(1);
  return row ?? null;
}
