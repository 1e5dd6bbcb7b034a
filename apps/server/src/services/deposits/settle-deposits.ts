/**
 * Moves one chain's pending deposits on: a deposit whose block is no longer canonical is orphaned; one with
 * enough confirmations is credited, once: status confirmed, the money ledger entry (idempotent by
 * chain:txHash:logIndex) and the deposit notice in one transaction. Returns the notices to push after commit.
 */
import { formatCents } from '@rpc/contract';
import { deposits, type TDatabase, type TNoticeRow } from '@rpc/db';
import { and, asc, eq } from 'drizzle-orm';
import { formatUnits } from 'viem';
import { raiseNotice } from '../notices/raise-notice';
import { postMoney } from '../wallet/post-money';
import type { TChainReader } from './chain-reader';
import type { TDepositChain } from './deposit-settings';

/** Pending deposits looked at per step; more wait for the next one. */
const SETTLE_BATCH = 500;

export type TSettleResult = { credited: number; orphaned: number; notices: TNoticeRow[] };

export async function settleDeposits(o: {
  db: TDatabase;
  reader: TChainReader;
  chain: TDepositChain;
  head: number;
  now: number;
}): Promise<TSettleResult> {
  const pending = await o.db
    .select()
    .from(deposits)
    .where(and(eq(deposits.chain, o.chain.chain), eq(deposits.status, 'pending')))
    .orderBy(asc(deposits.blockNumber))
    .limit(SETTLE_BATCH);
  const hashes = new Map<number, string | null>();
  const canonicalHash = async (n: number) => {
    if (!hashes.has(n)) hashes.set(n, n <= o.head ? await o.reader.blockHash(n) : null);
    return hashes.get(n);
  };
  const result: TSettleResult = { credited: 0, orphaned: 0, notices: [] };
  for (const d of pending) {
    // Checked right before crediting, whatever the scan saw: a deposit is credited only from a canonical block.
    const stillThere = (await canonicalHash(d.blockNumber)) === d.blockHash;
    const unchanged = and(
      eq(deposits.id, d.id),
      eq(deposits.status, 'pending'),
      eq(deposits.blockHash, d.blockHash),
    );
    if (!stillThere) {
      const rows = await o.db
        .update(deposits)
        .set({ status: 'orphaned' })
        .where(unchanged)
        .returning({ id: deposits.id });
      result.orphaned += rows.length;
      continue;
    }
    if (o.head - d.blockNumber + 1 < o.chain.confirmations) continue;
    const coin = o.chain.coins.find((c) => c.coin === d.coin);
    const coinAmount = formatUnits(BigInt(d.amount), coin?.decimals ?? 0);
    const credit = await o.db.transaction(async (tx) => {
      // Only one transaction wins the pending → confirmed step (others match no row), so only one credits.
      const [won] = await tx
        .update(deposits)
        .set({ status: 'confirmed', creditedAt: new Date(o.now) })
        .where(unchanged)
        .returning({ id: deposits.id });
      if (!won) return { posted: false, notices: [] };
      const posted = await postMoney(tx, {
        accountId: d.accountId,
        delta: d.usdCents,
        kind: 'deposit',
        ref: `${d.chain}:${d.txHash}:${d.logIndex}`,
        at: o.now,
      });
      // Already in the ledger (the same transfer seen again after a local chain reset): no second credit.
      if (!posted) return { posted: false, notices: [] };
      const notices = await raiseNotice({
        db: tx,
        at: o.now,
        type: 'deposit',
        accountId: d.accountId,
        title: 'Deposit received',
        content: `Your deposit of ${coinAmount} ${d.coin} (about $${formatCents(d.usdCents)}) has arrived in your wallet.`,
        expand: { coinAmount, coin: d.coin, usdAmount: formatCents(d.usdCents) },
      });
      return { posted: true, notices };
    });
    if (credit.posted) result.credited++;
    result.notices.push(...credit.notices);
  }
  return result;
}
