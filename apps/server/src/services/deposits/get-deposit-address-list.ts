import { depositAddresses, type TDatabase } from '@rpc/db';
import { asc, eq } from 'drizzle-orm';
import type { TDepositCaller } from './deposit-error';
import { findDepositChain, type TDepositSettings } from './deposit-settings';

/** Every address the account has been given; coins are those its chain takes now (none if switched off). */
export async function getDepositAddressList(o: {
  deps: { db: TDatabase; deposits: TDepositSettings };
  auth: TDepositCaller;
}): Promise<{ list: Array<{ chain: string; address: string; coins: string[] }> }> {
  const rows = await o.deps.db
    .select({ chain: depositAddresses.chain, address: depositAddresses.address })
    .from(depositAddresses)
    .where(eq(depositAddresses.accountId, o.auth.account.id))
    .orderBy(asc(depositAddresses.chain));
  return {
    list: rows.map((r) => ({
      ...r,
      coins: findDepositChain(o.deps.deposits, r.chain)?.coins.map((c) => c.coin) ?? [],
    })),
  };
}
