import type { TDeposit } from '@rpc/contract';
import { chainCursors, deposits, type TDatabase, type TExecutor } from '@rpc/db';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { TDepositCaller } from './deposit-error';
import type { TDepositSettings } from './deposit-settings';
import { toDeposit } from './to-deposit';

type TDeps = { db: TDatabase; deposits: TDepositSettings };

/** Last scanned block per chain, which confirmations are counted against. */
export async function scannedBlocks(db: TExecutor): Promise<Map<string, number>> {
  const rows = await db
    .select({ chain: chainCursors.chain, block: chainCursors.blockNumber })
    .from(chainCursors);
  return new Map(rows.map((r) => [r.chain, r.block]));
}

/** Credited deposits, paged (SPEC §9), oldest or newest credit first. Every deposit here is channel "crypto". */
export async function getWalletDeposit(o: {
  deps: TDeps;
  auth: TDepositCaller;
  params: {
    page: number;
    perPage: number;
    sort: 'asc' | 'desc';
    channel: 'all' | 'crypto' | 'card';
  };
}): Promise<{ list: TDeposit[]; total: number; page: number; perPage: number }> {
  const { page, perPage, sort, channel } = o.params;
  if (channel === 'card') return { list: [], total: 0, page, perPage };
  const where = and(eq(deposits.accountId, o.auth.account.id), eq(deposits.status, 'confirmed'));
  const order = sort === 'asc' ? asc : desc;
  const [rows, [totalRow], scanned] = await Promise.all([
    o.deps.db
      .select()
      .from(deposits)
      .where(where)
      .orderBy(order(deposits.creditedAt), order(deposits.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    o.deps.db.select({ n: count() }).from(deposits).where(where),
    scannedBlocks(o.deps.db),
  ]);
  return {
    list: rows.map((r) => toDeposit(r, o.deps.deposits, scanned.get(r.chain) ?? null)),
    total: totalRow?.n ?? 0,
    page,
    perPage,
  };
}
