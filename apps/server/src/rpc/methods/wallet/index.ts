/** Handlers of the wallet domain (packages/contract/src/wallet/methods.ts). */
import type { TNamesOf, WALLET_METHODS } from '@rpc/contract';
import type { THandler } from '../../define-handler';
import { getUserWalletOverviewHandler } from './get-user-wallet-overview';
import { getSkuListHandler } from './get-sku-list';
import { skuFirstConfirmHandler } from './sku-first-confirm';
import { buyPackageHandler } from './buy-package';
import { getFreeSkuBuyFreeTypeHandler } from './get-free-sku-buy-free-type';
import { getEnterpriseInfoHandler } from './get-enterprise-info';
import { getViewUserPurchaseInfoHandler } from './get-view-user-purchase-info';
import { getViewUsedInfoHandler } from './get-view-used-info';
import { setUserAutoRenewHandler } from './set-user-auto-renew';
import { setUserDiscountCodeHandler } from './set-user-discount-code';
import { getUserDiscountCodeDetailHandler } from './get-user-discount-code-detail';
import { getSpendLimitsHandler } from './get-spend-limits';
import { setSpendLimitsHandler } from './set-spend-limits';

export const WALLET_HANDLERS: {
  [N in TNamesOf<typeof WALLET_METHODS>]: THandler<N>;
} = {
  hub_getUserWalletOverview: getUserWalletOverviewHandler,
  hub_getSkuList: getSkuListHandler,
  hub_skuFirstConfirm: skuFirstConfirmHandler,
  hub_buyPackage: buyPackageHandler,
  hub_getFreeSkuBuyFreeType: getFreeSkuBuyFreeTypeHandler,
  hub_getEnterpriseInfo: getEnterpriseInfoHandler,
  hub_getViewUserPurchaseInfo: getViewUserPurchaseInfoHandler,
  hub_getViewUsedInfo: getViewUsedInfoHandler,
  hub_setUserAutoRenew: setUserAutoRenewHandler,
  hub_setUserDiscountCode: setUserDiscountCodeHandler,
  hub_getUserDiscountCodeDetail: getUserDiscountCodeDetailHandler,
  hub_getSpendLimits: getSpendLimitsHandler,
  hub_setSpendLimits: setSpendLimitsHandler,
};
