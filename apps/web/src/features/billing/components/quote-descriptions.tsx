/** A purchase quote as the confirmation shows it: price, discount, what is paid, (the wallet), tier and expiry. */
import type { TQuote } from '@rpc/contract';
import { Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { TAG_STYLE } from '../../../components/tag-styles';
import { useBillingFormat } from '../hooks/use-billing-format';

export function QuoteDescriptions({ quote, hasWallet }: { quote: TQuote; hasWallet: boolean }) {
  const { t } = useTranslation('billing');
  const format = useBillingFormat();
  return (
    <>
      {quote.isFirstPurchase ? (
        <Tag style={TAG_STYLE.gold}>{t('confirm.firstPurchase')}</Tag>
      ) : null}
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('confirm.price')}>
          {format.money(quote.priceCents)}
        </Descriptions.Item>
        <Descriptions.Item label={t('confirm.discount')}>
          {quote.discountCents > 0
            ? `−${format.money(quote.discountCents)}${quote.discountCode ? ` (${quote.discountCode})` : ''}`
            : format.money(0)}
        </Descriptions.Item>
        <Descriptions.Item label={t('confirm.payAmount')}>
          <strong>{format.money(quote.payCents)}</strong>
        </Descriptions.Item>
        {hasWallet ? (
          <Descriptions.Item label={t('confirm.wallet')}>
            {format.money(quote.walletCents)}
          </Descriptions.Item>
        ) : null}
        {hasWallet ? (
          <Descriptions.Item label={t('confirm.walletAfter')}>
            {format.money(quote.walletAfterCents)}
          </Descriptions.Item>
        ) : null}
        <Descriptions.Item label={t('confirm.tier')}>
          {quote.tierBefore === quote.tierAfter
            ? format.tier(quote.tierAfter)
            : t('confirm.tierChange', {
                before: format.tier(quote.tierBefore),
                after: format.tier(quote.tierAfter),
              })}
        </Descriptions.Item>
        <Descriptions.Item label={t('confirm.expires')}>
          {format.date(quote.expiresAt)}
        </Descriptions.Item>
      </Descriptions>
    </>
  );
}
