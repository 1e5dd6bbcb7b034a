/**
 * What the deposit watcher reads from a chain, over plain JSON-RPC to the chain's upstream (viem public client,
 * batched): the head, block hashes (for re-orgs), native transfers to our addresses and ERC-20 Transfer logs.
 */
import {
  BlockNotFoundError,
  createPublicClient,
  http,
  parseAbiItem,
  type PublicClient,
} from 'viem';

const TRANSFER = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);
/** Addresses per eth_getLogs topic filter: providers cap request sizes. */
const ADDRESS_CHUNK = 500;
/** Blocks fetched at once (one JSON-RPC batch). */
const BLOCK_CONCURRENCY = 20;

export type TTransfer = {
  txHash: string;
  /** the log's index in its block; -1 for a native transfer */
  logIndex: number;
  blockNumber: number;
  blockHash: string;
  from: string | null;
  /** lower-case */
  to: string;
  amount: bigint;
  /** lower-case token contract; null for the native coin */
  contract: string | null;
};

export type TChainReader = {
  head: () => Promise<number>;
  /** The canonical hash at `n`, or null when the chain has no such block (yet, or any more). */
  blockHash: (n: number) => Promise<string | null>;
  nativeTransfers: (from: number, to: number, addresses: Set<string>) => Promise<TTransfer[]>;
  tokenTransfers: (
    from: number,
    to: number,
    contracts: string[],
    addresses: string[],
  ) => Promise<TTransfer[]>;
};

export function createChainReader(rpcUrl: string): TChainReader {
  const client: PublicClient = createPublicClient({
    // cacheTime 0: viem otherwise answers eth_blockNumber from a 4 s cache, and the watcher wants the head now.
    cacheTime: 0,
    transport: http(rpcUrl, { batch: { batchSize: BLOCK_CONCURRENCY }, timeout: 15_000 }),
  });

  const blockHash = async (n: number): Promise<string | null> => {
    try {
      const block = await client.getBlock({ blockNumber: BigInt(n) });
      return block.hash;
    } catch (err) {
      if (err instanceof BlockNotFoundError) return null;
      throw err;
    }
  };

  const nativeTransfers = async (from: number, to: number, addresses: Set<string>) => {
    const found: TTransfer[] = [];
    for (let start = from; start <= to; start += BLOCK_CONCURRENCY) {
      const numbers = range(start, Math.min(to, start + BLOCK_CONCURRENCY - 1));
      const blocks = await Promise.all(
        numbers.map((n) => client.getBlock({ blockNumber: BigInt(n), includeTransactions: true })),
      );
      for (const block of blocks) {
        for (const tx of block.transactions) {
          const toAddress = tx.to?.toLowerCase();
          if (!toAddress || !addresses.has(toAddress) || tx.value === 0n) continue;
          // Included is not succeeded: a reverted call moves no value.
          const receipt = await client.getTransactionReceipt({ hash: tx.hash });
          if (receipt.status !== 'success') continue;
          found.push({
            txHash: tx.hash,
            logIndex: -1,
            blockNumber: Number(block.number),
            blockHash: block.hash,
            from: tx.from.toLowerCase(),
            to: toAddress,
            amount: tx.value,
            contract: null,
          });
        }
      }
    }
    return found;
  };

  const tokenTransfers = async (
    from: number,
    to: number,
    contracts: string[],
    addresses: string[],
  ) => {
    const found: TTransfer[] = [];
    if (contracts.length === 0) return found;
    for (let i = 0; i < addresses.length; i += ADDRESS_CHUNK) {
      const logs = await client.getLogs({
        address: contracts as `0x${string}`[],
        event: TRANSFER,
        args: { to: addresses.slice(i, i + ADDRESS_CHUNK) as `0x${string}`[] },
        fromBlock: BigInt(from),
        toBlock: BigInt(to),
        strict: true,
      });
      for (const log of logs) {
        if (log.removed) continue;
        found.push({
          txHash: log.transactionHash,
          logIndex: log.logIndex,
          blockNumber: Number(log.blockNumber),
          blockHash: log.blockHash,
          from: log.args.from.toLowerCase(),
          to: log.args.to.toLowerCase(),
          amount: log.args.value,
          contract: log.address.toLowerCase(),
        });
      }
    }
    return found;
  };

  return {
    head: async () => Number(await client.getBlockNumber()),
    blockHash,
    nativeTransfers,
    tokenTransfers,
  };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
