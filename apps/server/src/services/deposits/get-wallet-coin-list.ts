import type { TCoin } from '@rpc/contract';
import type { TDepositSettings } from './deposit-settings';

/** The coins of every usable chain; an empty list when deposits are not configured. */
export function getWalletCoinList(o: { deps: { deposits: TDepositSettings } }): { list: TCoin[] } {
  return {
    list: o.deps.deposits.chains.flatMap((chain) =>
      chain.coins.map((c) => ({
        coin: c.coin,
        name: c.name,
        chain: chain.chain,
        chainName: chain.chainName,
        contract: c.contract,
        decimals: c.decimals,
        confirmations: chain.confirmations,
        minDeposit: c.minDeposit.toString(),
        usdCentsPerCoin: c.usdCentsPerCoin,
      })),
    ),
  };
}
