/** Stripe's card brand and funding, as the SPEC §3 brand list names them. */
import type { TCardBrand } from '@rpc/contract';

const PLAIN: Record<string, TCardBrand> = {
  visa: 'visa',
  mastercard: 'mastercard',
  amex: 'amex',
  american_express: 'amex',
  discover: 'discover',
  diners: 'diners',
  diners_club: 'diners',
  jcb: 'jcb',
  unionpay: 'unionpay',
};

export function toCardBrand(brand: string | null | undefined, funding?: string | null): TCardBrand {
  const b = PLAIN[(brand ?? '').toLowerCase()] ?? 'unknown';
  if (b === 'visa' && funding === 'debit') return 'visa_debit';
  if (b === 'mastercard' && funding === 'debit') return 'mastercard_debit';
  if (b === 'mastercard' && funding === 'prepaid') return 'mastercard_prepaid';
  return b;
}
