import { deposits, type TDatabase } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import { DepositError, type TDepositCaller } from './deposit-error';

/**
 * Hides a pending deposit from the pending list. Only hides: the watcher still credits it when it confirms.
 * Another account's id, an unknown one and one no longer pending are all "not found".
 */
export async function delWalletDepositPending(o: {
  deps: { db: TDatabase };
  auth: TDepositCaller;
  params: { id: string };
}): Promise<{ success: true }> {
  const hidden = await o.deps.db
    .update(deposits)
    .set({ hidden: true })
    .where(
      and(
        eq(deposits.id, o.params.id),
        eq(deposits.accountId, o.auth.account.id),
        eq(deposits.status, 'pending'),
      ),
    )
    .returning({ id: deposits.id });
  if (hidden.length === 0) throw new DepositError('not_found');
  return { success: true };
}
