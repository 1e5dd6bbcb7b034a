/** A deposits row as the API shows it (contract ZDepositSchema): exact base units plus whole coins for display. */
import type { TDeposit } from '@rpc/contract';
import type { TDepositRow } from '@rpc/db';
import { formatUnits } from 'viem';
import coinsJson from '../../../config/coins.json' with { type: 'json' };
import { findDepositChain, type TDepositSettings } from './deposit-settings';

type TCoinFacts = { decimals: number; confirmations: number };

/**
 * Decimals and confirmations of a coin: from the usable chains, else from config/coins.json (a chain switched
 * off since keeps its history readable), else whole units.
 */
export function coinFacts(settings: TDepositSettings, chain: string, coin: string): TCoinFacts {
  const usable = findDepositChain(settings, chain);
  const fromUsable = usable?.coins.find((c) => c.coin === coin);
  if (usable && fromUsable)
    return { decimals: fromUsable.decimals, confirmations: usable.confirmations };
  const entry = coinsJson.chains.find((c) => c.chain === chain);
  const fromFile = entry?.coins.find((c) => c.coin === coin);
  return { decimals: fromFile?.decimals ?? 0, confirmations: entry?.confirmations ?? 1 };
}

/** `scannedTo`: the last block the watcher scanned on that chain, which confirmations are counted against. */
export function toDeposit(
  row: TDepositRow,
  settings: TDepositSettings,
  scannedTo: number | null,
): TDeposit {
  const facts = coinFacts(settings, row.chain, row.coin);
  const seen = scannedTo === null ? 0 : Math.max(0, scannedTo - row.blockNumber + 1);
  return {
    id: row.id,
    chain: row.chain,
    coin: row.coin,
    txHash: row.txHash,
    logIndex: row.logIndex,
    fromAddress: row.fromAddress,
    toAddress: row.toAddress,
    amount: row.amount,
    coinAmount: formatUnits(BigInt(row.amount), facts.decimals),
    usdCents: row.usdCents,
    status: row.status,
    // A credited deposit had at least the required count; an orphaned one has none on the canonical chain.
    confirmations:
      row.status === 'confirmed'
        ? Math.max(seen, facts.confirmations)
        : row.status === 'orphaned'
          ? 0
          : seen,
    requiredConfirmations: facts.confirmations,
    blockNumber: row.blockNumber,
    createdAt: row.createdAt.getTime(),
    creditedAt: row.creditedAt ? row.creditedAt.getTime() : null,
    channel: 'crypto',
  };
}
