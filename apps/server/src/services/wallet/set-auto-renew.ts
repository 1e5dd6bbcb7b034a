/** hub_setUserAutoRenew: one package of the acting account renews itself from the wallet, or stops doing so. */
import { ERROR_CODES, type TParams, type TResult } from '@rpc/contract';
import { ruPackages } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import { RpcError } from '../../rpc/errors';
import { raiseNotice } from '../notices/raise-notice';
import { toPackage } from './package-rows';
import { lockAccount } from './lock-account';
import { findSku } from './sku-catalogue';
import type { TWalletCaller, TWalletDeps } from './wallet-caller';

export async function setAutoRenew(
  deps: TWalletDeps,
  caller: TWalletCaller,
  params: TParams<'hub_setUserAutoRenew'>,
): Promise<TResult<'hub_setUserAutoRenew'>> {
  const now = deps.clock.now();
  const { row, notices } = await deps.db.transaction(async (tx) => {
    await lockAccount(tx, caller.accountId);
    const [pkg] = await tx
      .select()
      .from(ruPackages)
      .where(and(eq(ruPackages.id, params.packageId), eq(ruPackages.accountId, caller.accountId)));
    if (!pkg) throw new RpcError(ERROR_CODES.NOT_FOUND);
    if (params.autoRenew) {
      const sku = findSku(deps.skus, pkg.skuId);
      if (!sku?.canAutoRenew || !sku.isPurchasable || pkg.status !== 'active')
        throw new RpcError(ERROR_CODES.AUTO_RENEW_UNAVAILABLE);
    }
    if (pkg.autoRenew === params.autoRenew) return { row: pkg, notices: [] };
    const [updated] = await tx
      .update(ruPackages)
      .set({ autoRenew: params.autoRenew })
      .where(eq(ruPackages.id, pkg.id))
      .returning();
    const raised = params.autoRenew
      ? []
      : await raiseNotice({
          db: tx,
          at: now,
          type: 'auto_renew_off',
          accountId: caller.accountId,
          title: 'Auto-renewal turned off',
          content: `${pkg.name.en} will not be renewed automatically.`,
          expand: { skuName: pkg.name.en },
        });
    return { row: updated!, notices: raised };
  });
  deps.noticeBus.push(notices);
  return toPackage(row, now);
}
