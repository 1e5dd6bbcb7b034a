import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatNumber, numberFormat } from './format-number';

/** Counts the Intl.NumberFormat objects made, each still a real one. */
function watchConstructions() {
  const Real = Intl.NumberFormat;
  return vi.spyOn(Intl, 'NumberFormat').mockImplementation(function (
    ...args: ConstructorParameters<typeof Real>
  ) {
    return new Real(...args);
  } as unknown as typeof Real);
}

describe('numbers in the page language', () => {
  afterEach(() => vi.restoreAllMocks());

  it('groups digits and formats each style per language', () => {
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
    expect(formatNumber(1234567, 'zh')).toBe('1,234,567');
    expect(numberFormat('en', 'percent').format(0.1234)).toBe('12.3%');
    expect(numberFormat('en', 'usd').format(1234.5)).toBe('$1,234.50');
    expect(numberFormat('zh', 'usd').format(1234.5)).toBe('US$1,234.50');
  });

  it('groups whole numbers as Intl does in both languages, without making a formatter', () => {
    const values = [
      0,
      7,
      12,
      999,
      1000,
      -1000,
      123456,
      1234567,
      -98765432,
      1e15,
      Number.MAX_SAFE_INTEGER,
    ];
    const made = watchConstructions();
    const grouped = values.map((n) => [formatNumber(n, 'en'), formatNumber(n, 'zh')]);
    expect(made).not.toHaveBeenCalled();
    made.mockRestore();
    values.forEach((n, i) => {
      expect(grouped[i]).toEqual([
        new Intl.NumberFormat('en-US').format(n),
        new Intl.NumberFormat('zh-CN').format(n),
      ]);
    });
    // -0 shows as 0 (Intl writes "-0"); fractions and numbers past the safe range go through Intl.
    expect(formatNumber(-0, 'zh')).toBe('0');
    expect(formatNumber(1234.5, 'en')).toBe('1,234.5');
    expect(formatNumber(2 ** 60, 'en')).toBe(new Intl.NumberFormat('en-US').format(2 ** 60));
  });

  it('makes one formatter per language and style, on first use only', () => {
    const made = watchConstructions();
    const first = numberFormat('en', 'plain');
    expect(numberFormat('en', 'plain')).toBe(first);
    expect(numberFormat('zh', 'plain')).not.toBe(first);
    expect(numberFormat('en', 'percent')).not.toBe(first);
    formatNumber(5.5, 'en');
    formatNumber(6.5, 'zh');
    // At most one construction per (language, style) pair asked for above, whatever ran before this test.
    expect(made.mock.calls.length).toBeLessThanOrEqual(3);
  });
});
