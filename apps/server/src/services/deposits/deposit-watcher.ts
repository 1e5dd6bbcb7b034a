/**
 * The deposit watcher: per usable chain, one scan step (scan-chain.ts) then one settle step (settle-deposits.ts)
 * per tick. Everything it knows lives in the database (cursor, deposits, ledger), so it can stop anywhere and
 * start again, in this process or another, and never credit twice.
 */
import type { TDatabase } from '@rpc/db';
import type { TClock } from '../../lib/clock';
import type { TLogger } from '../../lib/logger';
import type { TNoticeBus } from '../notices/notice-bus';
import { createChainReader, type TChainReader } from './chain-reader';
import type { TDepositSettings } from './deposit-settings';
import { scanChain, type TScanResult } from './scan-chain';
import { settleDeposits } from './settle-deposits';

export type TChainTick = {
  chain: string;
  scan?: TScanResult;
  credited?: number;
  orphaned?: number;
  error?: unknown;
};

export type TDepositWatcher = {
  /** One step on every chain; a failing chain is logged and does not stop the others. */
  tick: () => Promise<TChainTick[]>;
};

export function createDepositWatcher(o: {
  db: TDatabase;
  clock: TClock;
  logger: TLogger;
  noticeBus: TNoticeBus;
  deposits: TDepositSettings;
  /**
   * Accounts whose wallet a tick credited: their pay-as-you-go allowance moved, so the caller tells the gateways
   * (a key change per key of the account, as a purchase does).
   */
  onCredited?: (accountIds: string[]) => Promise<void>;
  /** Reads a chain (tests may wrap the real reader); default: JSON-RPC to the chain's upstream. */
  readerFor?: (rpcUrl: string) => TChainReader;
}): TDepositWatcher {
  const readers = new Map<string, TChainReader>();
  const readerOf = (rpcUrl: string) => {
    let reader = readers.get(rpcUrl);
    if (!reader) {
      reader = (o.readerFor ?? createChainReader)(rpcUrl);
      readers.set(rpcUrl, reader);
    }
    return reader;
  };
  // One error line per chain until it recovers, not one per tick while a node is down.
  const failing = new Set<string>();

  const tickChain = async (chain: TDepositSettings['chains'][number]): Promise<TChainTick> => {
    const reader = readerOf(chain.rpcUrl);
    try {
      const scan = await scanChain({
        db: o.db,
        reader,
        chain,
        now: o.clock.now(),
        logger: o.logger,
      });
      const settled = await settleDeposits({
        db: o.db,
        reader,
        chain,
        head: scan.head,
        now: o.clock.now(),
      });
      o.noticeBus.push(settled.notices);
      const credited = [
        ...new Set(settled.notices.flatMap((n) => (n.accountId ? [n.accountId] : []))),
      ];
      if (credited.length > 0) await o.onCredited?.(credited);
      if (failing.delete(chain.chain))
        o.logger.info({ chain: chain.chain }, 'deposit watcher: chain readable again');
      if (settled.credited > 0 || settled.orphaned > 0 || scan.recorded > 0)
        o.logger.info(
          {
            chain: chain.chain,
            recorded: scan.recorded,
            credited: settled.credited,
            orphaned: settled.orphaned,
          },
          'deposit watcher: deposits moved',
        );
      return { chain: chain.chain, scan, credited: settled.credited, orphaned: settled.orphaned };
    } catch (error) {
      if (!failing.has(chain.chain)) {
        failing.add(chain.chain);
        o.logger.error({ err: error, chain: chain.chain }, 'deposit watcher: chain step failed');
      }
      return { chain: chain.chain, error };
    }
  };

  return { tick: () => Promise.all(o.deposits.chains.map(tickChain)) };
}
