/**
 * "Buy a package": the SKU catalogue as cards (monthly free claim, packages, pay-as-you-go, enterprise contact),
 * the discount code, and the confirmation that every purchase goes through.
 */
import type { TSku } from '@rpc/contract';
import { Button, Card, Empty, Flex, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClaimFreeSku } from '../api/claim-free-sku';
import { useDiscountCode } from '../api/get-discount-code';
import { useSkuList } from '../api/get-sku-list';
import { useWalletOverview } from '../api/get-wallet-overview';
import { useBillingFormat } from '../hooks/use-billing-format';
import { DiscountCodeForm } from './discount-code-form';
import { EnterpriseModal } from './enterprise-modal';
import { PurchaseConfirmModal } from './purchase-confirm-modal';
import { ErrorState, LoadingState } from './query-state';
import type { TSkuAction } from './sku-card';
import { SkuCard } from './sku-card';

const TYPE_ORDER: Record<TSku['type'], number> = {
  free: 0,
  standard: 1,
  default: 2,
  enterprise: 3,
};

/** Free first, then packages by price, pay-as-you-go, enterprise. */
export function sortSkus(skus: readonly TSku[]): TSku[] {
  return [...skus].sort((a, b) => {
    const byFree = Number(b.isMonthlyFree) - Number(a.isMonthlyFree);
    if (byFree !== 0) return byFree;
    const byType = TYPE_ORDER[a.type] - TYPE_ORDER[b.type];
    return byType !== 0 ? byType : a.priceCents - b.priceCents;
  });
}

export function BuyPackageSection() {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const skus = useSkuList();
  const overview = useWalletOverview();
  const discount = useDiscountCode();
  const claim = useClaimFreeSku();
  const [buying, setBuying] = useState<TSku | null>(null);
  const [isEnterpriseOpen, setEnterpriseOpen] = useState(false);

  const onClaim = async (sku: TSku) => {
    try {
      const result = await claim.mutateAsync(sku.id);
      if (result.claimed) {
        void message.success(t('sku.claimed', { ru: format.number(result.package.ruTotal) }));
      } else {
        void message.info(t('sku.alreadyClaimed', { date: format.date(result.nextClaimAt) }));
      }
    } catch {
      // the request client has shown why
    }
  };

  const actionOf = (sku: TSku): TSkuAction => {
    if (sku.isMonthlyFree) return { kind: 'claim', isPending: claim.isPending };
    if (sku.type === 'enterprise' || !sku.isPurchasable) return { kind: 'contact' };
    if (sku.type === 'default' && overview.data?.isPaygActive) return { kind: 'active' };
    return { kind: 'buy' };
  };

  const onAction = (sku: TSku) => {
    const action = actionOf(sku);
    if (action.kind === 'claim') void onClaim(sku);
    else if (action.kind === 'contact') setEnterpriseOpen(true);
    else if (action.kind === 'buy') setBuying(sku);
  };

  const list = sortSkus(skus.data?.list ?? []);
  const hasEnterpriseCard = list.some((s) => s.type === 'enterprise');

  return (
    <Card
      title={
        <h2 id="buy-title" className="billing-card-title">
          {t('buy.title')}
        </h2>
      }
      aria-labelledby="buy-title"
      role="region"
    >
      <Flex vertical gap={16}>
        {skus.isLoading ? (
          <LoadingState label={t('buy.loading')} />
        ) : !skus.data ? (
          <ErrorState message={t('buy.loadFailed')} onRetry={() => void skus.refetch()} />
        ) : list.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('buy.empty')} />
        ) : (
          <div className="billing-sku-grid">
            {list.map((sku) => (
              <SkuCard
                key={sku.id}
                sku={sku}
                action={actionOf(sku)}
                onAction={() => onAction(sku)}
              />
            ))}
          </div>
        )}
        {skus.data && !hasEnterpriseCard ? (
          <Button
            type="link"
            style={{ padding: 0, alignSelf: 'flex-start' }}
            onClick={() => setEnterpriseOpen(true)}
          >
            {t('enterprise.link')}
          </Button>
        ) : null}
        <DiscountCodeForm />
      </Flex>
      {buying ? (
        <PurchaseConfirmModal
          key={buying.id}
          sku={buying}
          discount={discount.data}
          onClose={() => setBuying(null)}
        />
      ) : null}
      <EnterpriseModal open={isEnterpriseOpen} onClose={() => setEnterpriseOpen(false)} />
    </Card>
  );
}
