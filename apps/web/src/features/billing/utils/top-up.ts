/**
 * The amount of a card top-up as typed: US dollars with at most two decimals, $5 to $10,000 (the contract's
 * bounds), turned into cents without float arithmetic.
 */
import { TOP_UP_MAX_CENTS, TOP_UP_MIN_CENTS } from '@rpc/contract';

export type TTopUpAmount =
  { ok: true; cents: number } | { ok: false; problem: 'empty' | 'format' | 'min' | 'max' };

export function parseTopUpAmount(input: string): TTopUpAmount {
  const value = input.trim();
  if (!value) return { ok: false, problem: 'empty' };
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return { ok: false, problem: 'format' };
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (cents < TOP_UP_MIN_CENTS) return { ok: false, problem: 'min' };
  if (cents > TOP_UP_MAX_CENTS) return { ok: false, problem: 'max' };
  return { ok: true, cents };
}
