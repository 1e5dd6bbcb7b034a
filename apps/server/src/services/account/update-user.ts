/** One row update of the signed-in user, stamping updated_at; shared by the small profile setters. */
import { users } from '@rpc/db';
import { eq } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';

export type TUserUpdateOptions = Pick<TRpcContext, 'db' | 'clock'> & { auth: TAuth };

export async function updateUser(
  o: TUserUpdateOptions,
  values: Partial<typeof users.$inferInsert>,
): Promise<void> {
  await o.db
    .update(users)
    .set({ ...values, updatedAt: new Date(o.clock.now()) })
    .where(eq(users.id, o.auth.userId));
}
