/**
 * The spend-limit form's numbers: a dollar amount typed with at most 2 decimals becomes whole cents by string
 * math (never x * 100 on a float), and the checks the form needs against this month's usage.
 */
import type { TSpendLimits } from '@rpc/contract';
import { formatCents } from '@rpc/contract';

const DOLLARS = /^(\d+)(?:\.(\d{0,2}))?$/;

/** "12.34" -> 1234, "5" -> 500, empty -> null (no limit); anything else (3 decimals, minus, text) -> NaN. */
export function dollarsToCents(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  if (text === '') return null;
  const match = DOLLARS.exec(text);
  if (!match) return Number.NaN;
  const [, whole, fraction = ''] = match as unknown as [string, string, string | undefined];
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : Number.NaN;
}

/** 1234 -> "12.34"; null (no limit) -> null. */
export function centsToDollars(cents: number | null): string | null {
  return cents === null ? null : formatCents(cents);
}

/** Whole percent of a cap used, 0–100 (a cap can be overshot by calls in flight; the bar stops at full). */
export function percentUsed(used: number, cap: number): number {
  if (cap <= 0) return 100;
  return Math.min(100, Math.max(0, Math.floor((used * 100) / cap)));
}

/** Whether saving these caps with action 'stop' would stop the keys at once (the server stops at used >= cap). */
export function wouldStopNow(
  limits: { monthlyRuCap: number | null; monthlyCentsCap: number | null; action: string },
  month: TSpendLimits['month'],
): boolean {
  if (limits.action !== 'stop') return false;
  return (
    (limits.monthlyRuCap !== null && limits.monthlyRuCap <= month.ruUsed) ||
    (limits.monthlyCentsCap !== null && limits.monthlyCentsCap <= month.centsSpent)
  );
}
