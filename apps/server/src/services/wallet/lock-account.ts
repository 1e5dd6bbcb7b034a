/**
 * Locks an account's row for the rest of the transaction. Writers of an account's packages take it first, then the
 * package rows (purchases, renewals, reconciling usage, turning auto-renew off), so no two of them wait on each other
 * in opposite orders. (A notice's insert takes a share lock on the account through its foreign key, so a writer that
 * updates a package and then raises a notice would otherwise hold them the other way round.)
 */
import { accounts, type TExecutor } from '@rpc/db';
import { eq } from 'drizzle-orm';

export async function lockAccount(tx: TExecutor, accountId: string): Promise<void> {
  await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for('update');
}
