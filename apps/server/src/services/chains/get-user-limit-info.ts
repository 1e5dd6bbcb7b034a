import type { TResult } from '@rpc/contract';
import { accounts } from '@rpc/db';
import { defaultTier, tiers, type TTier } from '@rpc/gateway';
import { eq } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';

type TOptions = Pick<TRpcContext, 'db'> & { auth: TAuth };

export function tierOf(id: string): TTier {
  return tiers.find((t) => t.id === id) ?? defaultTier;
}

/** SPEC §3 rate-limit fields from the tiers config (the gateway enforces the same numbers), plus the RU balance. */
export async function getUserLimitInfo(o: TOptions): Promise<TResult<'hub_getUserLimitInfo'>> {
  const [account] = await o.db
    .select({ tier: accounts.tier, ruBalance: accounts.ruBalance })
    .from(accounts)
    .where(eq(accounts.id, o.auth.account.id));
  const tier = tierOf(account?.tier ?? defaultTier.id);
  const order = tiers.findIndex((t) => t.id === tier.id);
  return {
    currentLimitRate: tier.reqPerSec,
    currentLimitRateLevel: tier.id,
    currentLimitRateOrder: order,
    currentLimitRateValue: tier.ruPerSec,
    currentLimitRateLevelView: tier.name,
    currentLimitRateTitleView: `${tier.name}: ${tier.reqPerSec.toLocaleString('en-US')} requests/s, ${tier.ruPerSec.toLocaleString('en-US')} RU/s`,
    reqPerSec: tier.reqPerSec,
    ruPerSec: tier.ruPerSec,
    concurrency: tier.concurrency,
    ruBalance: account?.ruBalance ?? 0,
    tiers: tiers.map((t, i) => ({
      level: t.id,
      name: t.name,
      order: i,
      reqPerSec: t.reqPerSec,
      ruPerSec: t.ruPerSec,
      concurrency: t.concurrency,
    })),
  };
}
