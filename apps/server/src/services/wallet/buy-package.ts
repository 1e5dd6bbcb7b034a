/** hub_buyPackage and hub_skuFirstConfirm: quote a SKU, then buy it from the wallet once per request key. */
import { ERROR_CODES, type TParams, type TResult, type TSku } from '@rpc/contract';
import { RpcError } from '../../rpc/errors';
import { publishAccountChange } from './account-tier';
import { getWalletOverview } from './get-wallet-overview';
import { toPackage, toPurchase } from './package-rows';
import { quoteSku } from './price-quote';
import { purchasePackage } from './purchase-package';
import { findSku } from './sku-catalogue';
import type { TWalletCaller, TWalletDeps } from './wallet-caller';

export function purchasableSku(deps: Pick<TWalletDeps, 'skus'>, skuId: string): TSku {
  const sku = findSku(deps.skus, skuId);
  if (!sku || !sku.isPurchasable) throw new RpcError(ERROR_CODES.SKU_UNAVAILABLE);
  return sku;
}

export async function skuFirstConfirm(
  deps: TWalletDeps,
  caller: TWalletCaller,
  params: TParams<'hub_skuFirstConfirm'>,
): Promise<TResult<'hub_skuFirstConfirm'>> {
  const sku = purchasableSku(deps, params.skuId);
  const { discount: _discount, ...quote } = await quoteSku(deps.db, {
    accountId: caller.accountId,
    sku,
    catalogueVersion: deps.skus.version,
    useDiscount: params.useDiscount,
    now: deps.clock.now(),
  });
  return quote;
}

export async function buyPackage(
  deps: TWalletDeps,
  caller: TWalletCaller,
  params: TParams<'hub_buyPackage'>,
): Promise<TResult<'hub_buyPackage'>> {
  const sku = purchasableSku(deps, params.skuId);
  const now = deps.clock.now();
  const outcome = await deps.db.transaction((tx) =>
    purchasePackage(tx, {
      accountId: caller.accountId,
      userId: caller.userId,
      sku,
      catalogueVersion: deps.skus.version,
      seller: deps.config.invoiceSeller,
      requestKey: `buy:${params.idempotencyKey}`,
      reason: 'purchase',
      autoRenew: params.autoRenew,
      useDiscount: params.useDiscount,
      expectedPayCents: params.expectedPayCents,
      now,
    }),
  );
  if (outcome.isNew) {
    deps.noticeBus.push(outcome.notices);
    await publishAccountChange(deps, caller.accountId);
  }
  return {
    purchase: toPurchase(outcome.purchase),
    package: toPackage(outcome.pkg, now),
    wallet: await getWalletOverview(deps.db, { accountId: caller.accountId, now }),
  };
}
