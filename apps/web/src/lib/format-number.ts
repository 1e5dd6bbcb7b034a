/**
 * Numbers on screen in the page's language, from one Intl.NumberFormat per language and style. Making one is
 * slow (the first in a page loads the locale's ICU data: 12–17 ms of a cold dashboard load, in the keys table's
 * first render), so formatters are made on first use, not when a component renders, and kept; and whole numbers,
 * which en-US and zh-CN both write with "," between thousands, are grouped without one.
 */
import type { TLanguage } from '@rpc/contract';
import { LANG_TAG } from './i18n';

type TNumberStyle = 'plain' | 'percent' | 'usd';

const OPTIONS: Record<TNumberStyle, Intl.NumberFormatOptions> = {
  plain: {},
  percent: { style: 'percent', maximumFractionDigits: 1 },
  usd: { style: 'currency', currency: 'USD' },
};

const formats = new Map<string, Intl.NumberFormat>();

/** The language's formatter for a style, made once. */
export function numberFormat(lang: TLanguage, style: TNumberStyle = 'plain'): Intl.NumberFormat {
  const key = `${lang} ${style}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LANG_TAG[lang], OPTIONS[style]);
    formats.set(key, format);
  }
  return format;
}

/** 1234567 -> "1,234,567" in the language's grouping (the same in both languages for whole numbers). */
export function formatNumber(n: number, lang: TLanguage): string {
  if (!Number.isSafeInteger(n)) return numberFormat(lang).format(n);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}
