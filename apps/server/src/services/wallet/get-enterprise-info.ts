/** hub_getEnterpriseInfo: how to reach sales, what enterprise adds, and the account's enterprise packages. */
import type { TResult } from '@rpc/contract';
import { ruPackages } from '@rpc/db';
import { and, desc, eq } from 'drizzle-orm';
import { toPackage } from './package-rows';
import type { TWalletCaller, TWalletDeps } from './wallet-caller';

export async function getEnterpriseInfo(
  deps: Pick<TWalletDeps, 'db' | 'skus' | 'clock'>,
  caller: TWalletCaller,
): Promise<TResult<'hub_getEnterpriseInfo'>> {
  const now = deps.clock.now();
  const rows = await deps.db
    .select()
    .from(ruPackages)
    .where(and(eq(ruPackages.accountId, caller.accountId), eq(ruPackages.type, 'enterprise')))
    .orderBy(desc(ruPackages.createdAt))
    .limit(100);
  return {
    contactEmail: deps.skus.enterprise.contactEmail,
    features: deps.skus.enterprise.features,
    packages: rows.map((r) => toPackage(r, now)),
  };
}
