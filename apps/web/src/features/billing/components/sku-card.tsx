/** One SKU for sale: what it gives (RUs, days, tier, or the pay-as-you-go rate) and the way to get it. */
import type { TSku } from '@rpc/contract';
import { Button, Card, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useBillingFormat } from '../hooks/use-billing-format';

export type TSkuAction =
  | { kind: 'buy' }
  | { kind: 'claim'; isPending: boolean }
  | { kind: 'contact' }
  | { kind: 'active' };

export function SkuCard({
  sku,
  action,
  onAction,
}: {
  sku: TSku;
  action: TSkuAction;
  onAction: () => void;
}) {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  const name = format.text(sku.name);
  const isPayg = sku.type === 'default';
  const headingId = `sku-${sku.id}`;

  let button;
  switch (action.kind) {
    case 'buy':
      button = (
        <Button type="primary" block onClick={onAction} aria-label={t('sku.buyLabel', { name })}>
          {isPayg ? t('sku.turnOnPayg') : t('sku.buy')}
        </Button>
      );
      break;
    case 'claim':
      button = (
        <Button type="primary" block ghost loading={action.isPending} onClick={onAction}>
          {t('sku.claim')}
        </Button>
      );
      break;
    case 'contact':
      button = (
        <Button block onClick={onAction} aria-label={t('sku.contactLabel', { name })}>
          {t('sku.contact')}
        </Button>
      );
      break;
    case 'active':
      button = (
        <Tag color="green" style={{ textAlign: 'center', width: '100%', padding: 4 }}>
          {t('sku.paygActive')}
        </Tag>
      );
      break;
  }

  return (
    <Card size="small" role="article" aria-labelledby={headingId}>
      <Typography.Title level={3} id={headingId} className="billing-subtitle">
        {name} <Tag>{t(`packageType.${sku.type}`)}</Tag>
      </Typography.Title>
      <Typography.Text type="secondary">{format.text(sku.description)}</Typography.Text>
      <div className="billing-sku-price">
        {sku.isMonthlyFree
          ? t('sku.free')
          : isPayg && sku.paygCentsPerMillionRu !== null
            ? t('sku.paygRate', { price: format.money(sku.paygCentsPerMillionRu) })
            : !sku.isPurchasable && sku.priceCents === 0
              ? t('sku.customPrice')
              : format.money(sku.priceCents)}
      </div>
      <ul style={{ margin: 0, paddingInlineStart: 18 }}>
        {sku.ru > 0 ? <li>{t('sku.ru', { ru: format.number(sku.ru) })}</li> : null}
        <li>{t('sku.validity', { count: sku.validityDays })}</li>
        <li>{t('sku.tier', { tier: format.tier(sku.tier) })}</li>
        {sku.isMonthlyFree ? <li>{t('sku.monthly')}</li> : null}
        {isPayg && sku.arrearsLimitCents !== null ? (
          <li>{t('sku.arrearsLimit', { amount: format.money(sku.arrearsLimitCents) })}</li>
        ) : null}
      </ul>
      <div className="billing-sku-action">{button}</div>
    </Card>
  );
}
