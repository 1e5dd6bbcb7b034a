/** Formatters in the page's language: money from cents, counts, dates, and the { en, zh } texts of the API. */
import type { TLanguage } from '@rpc/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format-date-time';
import { formatNumber } from '../../../lib/format-number';
import { useLocale } from '../../../lib/i18n';
import { formatMoney } from '../utils/money';

export type TBillingFormat = {
  lang: TLanguage;
  money: (cents: number) => string;
  number: (n: number) => string;
  date: (ms: number | null | undefined) => string;
  text: (value: { en: string; zh: string }) => string;
  /** a tier id (free, elementary, …) as its name; an id without a name shows as it is */
  tier: (id: string) => string;
};

export function useBillingFormat(): TBillingFormat {
  const { lang } = useLocale();
  const { t } = useTranslation('billing');
  return useMemo(() => {
    return {
      lang,
      money: (cents) => formatMoney(cents, lang),
      number: (n) => formatNumber(n, lang),
      date: formatDateTime,
      text: (value) => value[lang],
      tier: (id) => t(`tierName.${id}`, { defaultValue: id }),
    };
  }, [lang, t]);
}
