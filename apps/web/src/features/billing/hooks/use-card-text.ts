/** How a card is named on screen: "Visa •••• 4242", its brand alone, and its expiry as MM/YYYY. */
import type { TCardBrand } from '@rpc/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

type TCardLike = { brand: TCardBrand | string; last4: string };

export type TCardText = {
  brand: (brand: TCardBrand | string) => string;
  label: (card: TCardLike) => string;
  expiry: (card: { expMonth: number; expYear: number }) => string;
};

export function useCardText(): TCardText {
  const { t } = useTranslation('cards');
  return useMemo(() => {
    const brand = (b: string) => t(`brand.${b}`, { defaultValue: t('brand.unknown') });
    return {
      brand,
      label: (card) => t('label', { brand: brand(card.brand), last4: card.last4 }),
      expiry: (card) => `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`,
    };
  }, [t]);
}
