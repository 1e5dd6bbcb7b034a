/**
 * One scan step of one chain: from the stored cursor (or, on first start, a little before the head) up to a
 * bounded number of blocks, records every transfer to one of our addresses as a pending deposit, then moves the
 * cursor, in one transaction. A cursor whose block is no longer canonical means a re-org: the scan restarts
 * `reorgDepth` blocks back, and recording is an idempotent upsert, so a re-scan adds nothing twice.
 */
import { chainCursors, depositAddresses, deposits, type TDatabase, type TExecutor } from '@rpc/db';
import { eq, sql } from 'drizzle-orm';
import type { TLogger } from '../../lib/logger';
import type { TChainReader, TTransfer } from './chain-reader';
import type { TDepositChain, TDepositCoin } from './deposit-settings';

export type TScanResult = {
  head: number;
  /** the scanned range, or null when there was nothing new */
  range: { from: number; to: number } | null;
  recorded: number;
  reorg: boolean;
};

export async function scanChain(o: {
  db: TDatabase;
  reader: TChainReader;
  chain: TDepositChain;
  now: number;
  logger: TLogger;
}): Promise<TScanResult> {
  const { chain, reader } = o;
  const head = await reader.head();
  const [cursor] = await o.db
    .select()
    .from(chainCursors)
    .where(eq(chainCursors.chain, chain.chain));
  let from = Math.max(0, head - chain.startWindow);
  let reorg = false;
  if (cursor) {
    const canonical = await reader.blockHash(cursor.blockNumber);
    if (canonical === cursor.blockHash) {
      from = cursor.blockNumber + 1;
    } else {
      // Also a chain reset (a restarted local node): the cursor may even be past the new head.
      reorg = true;
      from = Math.max(0, Math.min(cursor.blockNumber, head) - chain.reorgDepth);
      o.logger.warn(
        { chain: chain.chain, cursor: cursor.blockNumber, head, rescanFrom: from },
        'deposit watcher: re-org, re-scanning',
      );
    }
  }
  if (from > head) return { head, range: null, recorded: 0, reorg };
  const to = Math.min(head, from + chain.maxBlocksPerTick - 1);
  const toHash = await reader.blockHash(to);
  if (!toHash) return { head, range: null, recorded: 0, reorg };

  // Owners are read after the range is fixed: an address given out later can only be paid in a later block.
  const owners = new Map(
    (
      await o.db
        .select({ address: depositAddresses.address, accountId: depositAddresses.accountId })
        .from(depositAddresses)
        .where(eq(depositAddresses.chain, chain.chain))
    ).map((r) => [r.address, r.accountId]),
  );
  const transfers: TTransfer[] = [];
  if (owners.size > 0) {
    if (chain.coins.some((c) => c.contract === null))
      transfers.push(...(await reader.nativeTransfers(from, to, new Set(owners.keys()))));
    const contracts = chain.coins.flatMap((c) => (c.contract ? [c.contract] : []));
    transfers.push(...(await reader.tokenTransfers(from, to, contracts, [...owners.keys()])));
  }
  // The chain moved under the scan (the range's last block, or the block the scan continued from, changed):
  // keep the cursor and scan again next time rather than store a range read across two forks.
  const stillTo = await reader.blockHash(to);
  const stillCursor = cursor && !reorg ? await reader.blockHash(cursor.blockNumber) : null;
  if (stillTo !== toHash || (cursor && !reorg && stillCursor !== cursor.blockHash))
    return { head, range: null, recorded: 0, reorg: true };

  let recorded = 0;
  await o.db.transaction(async (tx) => {
    for (const t of transfers) {
      const accountId = owners.get(t.to);
      const coin = chain.coins.find((c) => c.contract === t.contract);
      if (!accountId || !coin) continue;
      if (
        await recordDeposit(tx, {
          chain: chain.chain,
          coin,
          accountId,
          transfer: t,
          logger: o.logger,
        })
      )
        recorded++;
    }
    await tx
      .insert(chainCursors)
      .values({
        chain: chain.chain,
        blockNumber: to,
        blockHash: toHash,
        updatedAt: new Date(o.now),
      })
      .onConflictDoUpdate({
        target: chainCursors.chain,
        set: { blockNumber: to, blockHash: toHash, updatedAt: new Date(o.now) },
      });
  });
  return { head, range: { from, to }, recorded, reorg };
}

/** USD cents a transfer credits: floor(amount × cents per coin / 10^decimals), exact in bigint. */
export function usdCentsOf(amount: bigint, coin: TDepositCoin): bigint {
  return (amount * BigInt(coin.usdCentsPerCoin)) / 10n ** BigInt(coin.decimals);
}

/**
 * Inserts the transfer as pending. Seen again (a re-scan): nothing changes, unless it had been orphaned or seen
 * in a block that is no longer canonical, in which case it is pending again in its new block. A credited deposit
 * is never touched. Returns whether a row was inserted or revived.
 */
async function recordDeposit(
  tx: TExecutor,
  o: { chain: string; coin: TDepositCoin; accountId: string; transfer: TTransfer; logger: TLogger },
): Promise<boolean> {
  const t = o.transfer;
  if (t.amount < o.coin.minDeposit) return false;
  const cents = usdCentsOf(t.amount, o.coin);
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) {
    o.logger.error({ chain: o.chain, txHash: t.txHash }, 'deposit watcher: amount out of range');
    return false;
  }
  const rows = await tx
    .insert(deposits)
    .values({
      accountId: o.accountId,
      chain: o.chain,
      coin: o.coin.coin,
      txHash: t.txHash,
      logIndex: t.logIndex,
      blockNumber: t.blockNumber,
      blockHash: t.blockHash,
      fromAddress: t.from,
      toAddress: t.to,
      amount: t.amount.toString(),
      usdCents: Number(cents),
      status: 'pending',
    })
    .onConflictDoUpdate({
      target: [deposits.chain, deposits.txHash, deposits.logIndex],
      set: {
        blockNumber: t.blockNumber,
        blockHash: t.blockHash,
        status: 'pending',
      },
      setWhere: sql`${deposits.status} = 'orphaned' or (${deposits.status} = 'pending' and ${deposits.blockHash} <> ${t.blockHash})`,
    })
    .returning({ id: deposits.id });
  return rows.length > 0;
}
