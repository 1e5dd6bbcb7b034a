/**
 * Money on screen: USD cents (integers from the API) formatted per language with Intl, and token base units
 * (decimal strings) shown in whole coins. Sums stay in integer cents; nothing here goes through a float.
 */
import type { TLanguage } from '@rpc/contract';
import { formatCents } from '@rpc/contract';
import { numberFormat } from '../../../lib/format-number';

/** 123456 -> "$1,234.56" (en) or "US$1,234.56" (zh). The exact decimal string is formatted, not cents / 100. */
export function formatMoney(cents: number, lang: TLanguage): string {
  return numberFormat(lang, 'usd').format(formatCents(cents) as `${number}`);
}

/** SPEC §3: the wallet's amount and arrears as numbers ("12.34" -> 1234 cents), without float arithmetic. */
export function parseUsdToCents(value: string): number {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(value.trim());
  if (!match) return Number.NaN;
  const [, sign, whole, fraction] = match as unknown as [string, string, string, string];
  const cents = Number(whole) * 100 + Number(fraction);
  return sign ? -cents : cents;
}

/** Base units as a decimal string in whole coins: ("1500000", 6) -> "1.5"; exact for any size (BigInt). */
export function formatTokenUnits(baseUnits: string, decimals: number): string {
  if (!/^\d+$/.test(baseUnits)) return baseUnits;
  const value = BigInt(baseUnits);
  if (decimals === 0) return value.toString();
  const scale = 10n ** BigInt(decimals);
  const whole = value / scale;
  const fraction = (value % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

/** Integer cents summed; a non-integer (a bug upstream) is refused rather than rounded silently. */
export function sumCents(values: readonly number[]): number {
  let total = 0;
  for (const value of values) {
    if (!Number.isSafeInteger(value)) throw new RangeError(`not whole cents: ${value}`);
    total += value;
  }
  return total;
}
