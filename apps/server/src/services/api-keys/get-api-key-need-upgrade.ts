import type { TResult } from '@rpc/contract';
import { accounts, apiKeys } from '@rpc/db';
import { and, eq, isNull, ne, or } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';

type TOptions = Pick<TRpcContext, 'db' | 'config'> & { auth: TAuth };
type TReason = TResult<'hub_getApiKeyNeedUpgrade'>['reasons'][number];

/**
 * Free-tier accounts only: a key using an advanced feature (archive, MEV, a chosen bundler), or an RU balance
 * at or under the low-RU threshold, means the account should upgrade. Paid tiers never need to.
 */
export async function getApiKeyNeedUpgrade(
  o: TOptions,
): Promise<TResult<'hub_getApiKeyNeedUpgrade'>> {
  const [account] = await o.db
    .select({ tier: accounts.tier, ruBalance: accounts.ruBalance })
    .from(accounts)
    .where(eq(accounts.id, o.auth.account.id));
  const tier = account?.tier ?? 'free';
  const reasons: TReason[] = [];
  if (tier === 'free') {
    const [advanced] = await o.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.accountId, o.auth.account.id),
          isNull(apiKeys.deletedAt),
          or(eq(apiKeys.archiveMode, true), ne(apiKeys.mev, ''), ne(apiKeys.bundler, 'default')),
        ),
      )
      .limit(1);
    if (advanced) reasons.push('advanced_features_on_free_tier');
    if ((account?.ruBalance ?? 0) <= o.config.lowRuThreshold) reasons.push('low_ru_balance');
  }
  return { needUpgrade: reasons.length > 0, tier, reasons };
}
