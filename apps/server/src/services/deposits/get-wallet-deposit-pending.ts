import type { TDeposit } from '@rpc/contract';
import { deposits, type TDatabase } from '@rpc/db';
import { and, desc, eq } from 'drizzle-orm';
import type { TDepositCaller } from './deposit-error';
import type { TDepositSettings } from './deposit-settings';
import { scannedBlocks } from './get-wallet-deposit';
import { toDeposit } from './to-deposit';

/** At most this many: pending deposits are few (they confirm within minutes) and the list is not paged. */
export const PENDING_LIST_LIMIT = 100;

/** Deposits seen on chain, waiting for confirmations, not hidden by the user; newest first. */
export async function getWalletDepositPending(o: {
  deps: { db: TDatabase; deposits: TDepositSettings };
  auth: TDepositCaller;
}): Promise<{ list: TDeposit[] }> {
  const [rows, scanned] = await Promise.all([
    o.deps.db
      .select()
      .from(deposits)
      .where(
        and(
          eq(deposits.accountId, o.auth.account.id),
          eq(deposits.status, 'pending'),
          eq(deposits.hidden, false),
        ),
      )
      .orderBy(desc(deposits.createdAt), desc(deposits.id))
      .limit(PENDING_LIST_LIMIT),
    scannedBlocks(o.deps.db),
  ]);
  return { list: rows.map((r) => toDeposit(r, o.deps.deposits, scanned.get(r.chain) ?? null)) };
}
