/**
 * Which chains and coins take deposits: config/coins.json (versioned data) joined with the chain catalogue (an
 * upstream to watch) and the environment (DEPOSIT_XPUB, DEPOSIT_TOKENS). A chain is usable only with an upstream,
 * an xpub and at least one coin; with none usable, deposits are "not configured" (10707).
 */
import type { TChain } from '@rpc/gateway';
import { z } from 'zod';
import coinsJson from '../../../config/coins.json' with { type: 'json' };
import { LOCALNET_TEST_XPUB, parseXpub } from './derive-address';

const ZAddressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'not a 0x address')
  .transform((a) => a.toLowerCase());
const ZBaseUnitsSchema = z.string().regex(/^\d{1,78}$/, 'not base units');

const ZCoinEntrySchema = z.object({
  coin: z.string().regex(/^[A-Z0-9]{1,16}$/),
  name: z.string().min(1),
  native: z.boolean(),
  /** null: no built-in address, DEPOSIT_TOKENS must supply it */
  contract: ZAddressSchema.nullable().optional(),
  decimals: z.number().int().min(0).max(36),
  usdCentsPerCoin: z.number().int().positive(),
  minDeposit: ZBaseUnitsSchema,
});

export const ZCoinsFileSchema = z.object({
  version: z.number().int(),
  chains: z.array(
    z.object({
      chain: z.string().min(1),
      confirmations: z.number().int().min(1).max(1000),
      reorgDepth: z.number().int().min(1).max(10_000),
      startWindow: z.number().int().min(0).max(100_000),
      maxBlocksPerTick: z.number().int().min(1).max(10_000),
      coins: z.array(ZCoinEntrySchema),
    }),
  ),
});
export type TCoinsFile = z.infer<typeof ZCoinsFileSchema>;

/** DEPOSIT_TOKENS: {"<chain>:<COIN>": "0x…"}, token contracts known only at start (the localnet test token). */
export const ZDepositTokensSchema = z.record(
  z.string().regex(/^[a-z0-9-]+:[A-Z0-9]+$/),
  ZAddressSchema,
);
export type TDepositTokens = z.infer<typeof ZDepositTokensSchema>;

export type TDepositCoin = {
  coin: string;
  name: string;
  /** lower-case ERC-20 contract; null for the chain's native coin */
  contract: string | null;
  decimals: number;
  usdCentsPerCoin: number;
  minDeposit: bigint;
};

export type TDepositChain = {
  chain: string;
  chainName: string;
  /** the JSON-RPC URL the watcher reads (the chain's first full upstream) */
  rpcUrl: string;
  xpub: string;
  confirmations: number;
  reorgDepth: number;
  startWindow: number;
  maxBlocksPerTick: number;
  coins: TDepositCoin[];
};

export type TDepositSettings = { chains: TDepositChain[] };

export function findDepositChain(
  settings: TDepositSettings,
  chain: string,
): TDepositChain | undefined {
  return settings.chains.find((c) => c.chain === chain);
}

export function loadDepositSettings(o: {
  chains: TChain[];
  xpub?: string | undefined;
  tokens?: TDepositTokens | undefined;
  file?: TCoinsFile;
}): TDepositSettings {
  const file = ZCoinsFileSchema.parse(o.file ?? coinsJson);
  // Fail at start on a bad key rather than on the first address request.
  if (o.xpub) parseXpub(o.xpub);
  const out: TDepositChain[] = [];
  for (const entry of file.chains) {
    const chain = o.chains.find((c) => c.id === entry.chain);
    const rpcUrl = chain?.http.full[0];
    if (!chain || !rpcUrl) continue;
    // The public test key only ever serves the local test chain; real chains need the operator's own.
    const xpub = o.xpub ?? (entry.chain === 'localnet' ? LOCALNET_TEST_XPUB : undefined);
    if (!xpub) continue;
    const coins: TDepositCoin[] = [];
    for (const c of entry.coins) {
      const contract = c.native ? null : (o.tokens?.[`${entry.chain}:${c.coin}`] ?? c.contract);
      if (!c.native && !contract) continue;
      coins.push({
        coin: c.coin,
        name: c.name,
        contract: contract ?? null,
        decimals: c.decimals,
        usdCentsPerCoin: c.usdCentsPerCoin,
        minDeposit: BigInt(c.minDeposit),
      });
    }
    if (coins.length === 0) continue;
    out.push({
      chain: entry.chain,
      chainName: chain.name,
      rpcUrl,
      xpub,
      confirmations: entry.confirmations,
      reorgDepth: Math.max(entry.reorgDepth, entry.confirmations),
      startWindow: entry.startWindow,
      maxBlocksPerTick: entry.maxBlocksPerTick,
      coins,
    });
  }
  return { chains: out };
}
