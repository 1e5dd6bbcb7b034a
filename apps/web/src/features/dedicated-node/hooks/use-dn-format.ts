/** Formatters in the page's language: money from cents, the { en, zh } texts of the API, dates, time left. */
import type { TLanguage } from '@rpc/contract';
import { formatCents } from '@rpc/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format-date-time';
import { numberFormat } from '../../../lib/format-number';
import { useLocale } from '../../../lib/i18n';
import { remainingTimeText } from '../../../lib/rpc-client';

export type TDnFormat = {
  lang: TLanguage;
  /** 123456 -> "$1,234.56" (en) or "US$1,234.56" (zh), from the exact decimal string, never cents / 100 */
  money: (cents: number) => string;
  text: (value: { en: string; zh: string }) => string;
  /** SPEC §9: YYYY-MM-DD HH:mm, a dash when there is none */
  date: (ms: number | null | undefined) => string;
  /** "in 3 days" or "2 hours ago", in SPEC §9's remaining-time words */
  fromNow: (ms: number, now: number) => string;
};

export function useDnFormat(): TDnFormat {
  const { lang } = useLocale();
  const { t } = useTranslation('dedicated-node');
  return useMemo(() => {
    return {
      lang,
      money: (cents) => numberFormat(lang, 'usd').format(formatCents(cents) as `${number}`),
      text: (value) => value[lang],
      date: formatDateTime,
      fromNow: (ms, now) =>
        ms >= now
          ? t('expiry.in', { time: remainingTimeText(ms - now) })
          : t('expiry.ago', { time: remainingTimeText(now - ms) }),
    };
  }, [lang, t]);
}
