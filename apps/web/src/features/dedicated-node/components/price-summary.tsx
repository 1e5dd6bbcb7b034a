/** The price of a period as it will be charged: monthly price, months, list price, discount and what is paid. */
import { Descriptions } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDnFormat } from '../hooks/use-dn-format';
import type { TDnQuote } from '../utils/pricing';

export function PriceSummary({
  quote,
  before = [],
  after = [],
}: {
  quote: TDnQuote;
  /** rows above the price (what is bought) */
  before?: { key: string; label: string; value: ReactNode }[];
  /** rows under it (the expiry after paying) */
  after?: { key: string; label: string; value: ReactNode }[];
}) {
  const { t } = useTranslation('dedicated-node');
  const format = useDnFormat();
  const rows = [
    ...before,
    {
      key: 'monthly',
      label: t('price.monthly'),
      value: t('price.perMonth', { amount: format.money(quote.monthlyCents) }),
    },
    {
      key: 'period',
      label: t('price.period'),
      value: t('months', { count: quote.months }),
    },
    { key: 'list', label: t('price.list'), value: format.money(quote.listCents) },
    ...(quote.discountCents > 0
      ? [
          {
            key: 'discount',
            label: t('price.discount', { percent: quote.discountPercent }),
            value: `−${format.money(quote.discountCents)}`,
          },
        ]
      : []),
    {
      key: 'total',
      label: t('price.total'),
      value: <strong>{format.money(quote.priceCents)}</strong>,
    },
    ...after,
  ];
  return (
    <Descriptions
      bordered
      size="small"
      column={1}
      items={rows.map((row) => ({ key: row.key, label: row.label, children: row.value }))}
    />
  );
}
