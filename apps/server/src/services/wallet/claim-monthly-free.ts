/** hub_getFreeSkuBuyFreeType: the monthly free SKU, once per calendar month (UTC) per account. */
import { ERROR_CODES, type TParams, type TResult } from '@rpc/contract';
import { RpcError } from '../../rpc/errors';
import { publishAccountChange } from './account-tier';
import { toPackage } from './package-rows';
import { purchasePackage } from './purchase-package';
import { findSku } from './sku-catalogue';
import type { TWalletCaller, TWalletDeps } from './wallet-caller';

/** "2026-11" and the first instant of the next month. */
export function monthOf(now: number): { key: string; nextStart: number } {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  return {
    key: `${y}-${String(m + 1).padStart(2, '0')}`,
    nextStart: Date.UTC(y, m + 1, 1),
  };
}

export async function claimMonthlyFree(
  deps: TWalletDeps,
  caller: TWalletCaller,
  params: TParams<'hub_getFreeSkuBuyFreeType'>,
): Promise<TResult<'hub_getFreeSkuBuyFreeType'>> {
  const sku = findSku(deps.skus, params.skuId);
  if (!sku || !sku.isMonthlyFree) throw new RpcError(ERROR_CODES.SKU_UNAVAILABLE);
  const now = deps.clock.now();
  const month = monthOf(now);
  const outcome = await deps.db.transaction((tx) =>
    purchasePackage(tx, {
      accountId: caller.accountId,
      userId: caller.userId,
      sku,
      catalogueVersion: deps.skus.version,
      seller: deps.config.invoiceSeller,
      // one claim per SKU and month: the second finds this key and changes nothing
      requestKey: `free:${sku.id}:${month.key}`,
      reason: 'monthly_free',
      autoRenew: false,
      useDiscount: false,
      now,
    }),
  );
  if (outcome.isNew) {
    deps.noticeBus.push(outcome.notices);
    await publishAccountChange(deps, caller.accountId);
  }
  return {
    claimed: outcome.isNew,
    package: toPackage(outcome.pkg, now),
    nextClaimAt: month.nextStart,
  };
}
