/**
 * An account's rate-limit tier follows its best active package (by requests per second), or the default tier
 * without one. A change is published as a change of every key of the account, so each gateway reloads the keys
 * (the loader joins the tier) and re-reads the account's RUs within the key-change latency (milliseconds).
 */
import { accounts, apiKeys, ruPackages, type TExecutor } from '@rpc/db';
import { defaultTier, tiers } from '@rpc/gateway';
import { and, eq, gt, isNull, ne, or } from 'drizzle-orm';
import type { TDeps } from '../../rpc/context';
import { publishKeyChange } from '../api-keys/api-key-rows';

function rank(tierId: string): number {
  return tiers.find((t) => t.id === tierId)?.reqPerSec ?? -1;
}

/** The tier the account's active packages give it now. */
export async function tierFromPackages(
  tx: TExecutor,
  accountId: string,
  now: number,
): Promise<string> {
  const active = await tx
    .selectDistinct({ tier: ruPackages.tier })
    .from(ruPackages)
    .where(
      and(
        eq(ruPackages.accountId, accountId),
        eq(ruPackages.status, 'active'),
        or(isNull(ruPackages.expiresAt), gt(ruPackages.expiresAt, new Date(now))),
      ),
    );
  let best = defaultTier.id;
  for (const p of active) if (rank(p.tier) > rank(best)) best = p.tier;
  return best;
}

/** Stores the tier the packages give; returns whether it changed. */
export async function refreshAccountTier(
  tx: TExecutor,
  accountId: string,
  now: number,
): Promise<boolean> {
  const next = await tierFromPackages(tx, accountId, now);
  const changed = await tx
    .update(accounts)
    .set({ tier: next })
    .where(and(eq(accounts.id, accountId), ne(accounts.tier, next)))
    .returning({ id: accounts.id });
  return changed.length > 0;
}

/** Tells every gateway that the account's keys (tier, RUs) changed; after the commit. */
export async function publishAccountChange(
  deps: Pick<TDeps, 'db' | 'keyEvents' | 'logger'>,
  accountId: string,
): Promise<void> {
  const keys = await deps.db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.deletedAt)));
  for (const k of keys) await publishKeyChange(deps, k.id);
}
