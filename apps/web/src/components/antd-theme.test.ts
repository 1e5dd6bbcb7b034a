import { readFileSync } from 'node:fs';
import path from 'node:path';
import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { THEME } from './antd-theme';

type TRgb = [number, number, number];

/** '#rrggbb' or 'rgba(r, g, b, a)', the latter laid over `under` as the browser paints it. */
function toRgb(color: string, under: TRgb = [255, 255, 255]): TRgb {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex) {
    const n = parseInt(hex[1]!, 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }
  const rgba = /^rgba?\(([^)]+)\)$/.exec(color.replace(/\s/g, ''));
  if (!rgba) throw new Error(`unknown colour ${color}`);
  const [r, g, b, a = 1] = rgba[1]!.split(',').map(Number) as [number, number, number, number?];
  return [r, g, b].map((c, i) => c * a + under[i]! * (1 - a)) as TRgb;
}

/** WCAG 2.2 contrast ratio. */
function contrast(foreground: string, background: string): number {
  const bg = toRgb(background);
  const luminance = ([r, g, b]: TRgb) => {
    const [lr, lg, lb] = [r, g, b].map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as TRgb;
    return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
  };
  const [a, b] = [luminance(toRgb(foreground, bg)), luminance(bg)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

const AA_TEXT = 4.5;
const token = theme.getDesignToken(THEME);
const WHITE = '#ffffff';

describe('theme contrast (WCAG 2.2 AA, item 12)', () => {
  it('measures as the issue did before the change', () => {
    const before = theme.getDesignToken();
    expect(contrast(before.colorTextDescription, WHITE)).toBeCloseTo(3.35, 2);
    expect(contrast(WHITE, before.colorPrimary)).toBeCloseTo(4.1, 2);
    expect(contrast(WHITE, before.colorError)).toBeCloseTo(3.27, 2);
  });

  it.each([
    ['white on the primary button', WHITE, token.colorPrimary],
    ['white on the hovered primary button', WHITE, token.colorPrimaryHover],
    ['white on the count badge and danger button', WHITE, token.colorError],
    ['white on the hovered danger button', WHITE, token.colorErrorHover],
    ['links', token.colorLink, WHITE],
    ['hovered links', token.colorLinkHover, WHITE],
    ['primary text', token.colorPrimaryText, WHITE],
    ['error text', token.colorErrorText, WHITE],
    ['secondary text on white', token.colorTextDescription, WHITE],
    ['secondary text on the page background', token.colorTextDescription, token.colorBgLayout],
    ['secondary text on a selected row', token.colorTextDescription, token.controlItemBgActive],
    ['tertiary text on white', token.colorTextTertiary, WHITE],
    ['links on the page background', token.colorLink, token.colorBgLayout],
    ['success text', token.colorSuccessText, WHITE],
    ['warning text', token.colorWarningText, WHITE],
  ])('%s reach 4.5:1', (_name, foreground, background) => {
    expect(contrast(foreground, background)).toBeGreaterThanOrEqual(AA_TEXT);
  });
});

describe('component tokens (WCAG 2.2 AA, item 12)', () => {
  const tag = { ...token, ...THEME.components?.Tag };
  const table = { ...token, ...THEME.components?.Table };

  it.each([
    ['success tag', tag.colorSuccess, token.colorSuccessBg],
    ['warning tag', tag.colorWarning, token.colorWarningBg],
    ['processing tag', tag.colorInfo, token.colorInfoBg],
    ['error tag', token.colorError, token.colorErrorBg],
    ['empty-table text', table.colorTextDisabled, WHITE],
  ])('%s reaches 4.5:1', (_name, foreground, background) => {
    expect(contrast(String(foreground), background)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('underlines links inside text', () => {
    expect(THEME.components?.Typography?.linkDecoration).toBe('underline');
  });
});

describe('the CSS variables of the plain pages (app/global.css)', () => {
  const css = readFileSync(path.join(import.meta.dirname, '../app/global.css'), 'utf8');
  const root = /:root\s*\{([^}]*)\}/.exec(css)?.[1] ?? '';
  const variables = [...root.matchAll(/--([\w-]+):\s*([^;]+);/g)].map(([, name, value]) => ({
    name: name!,
    value: value!,
  }));
  /** `--color-primary` names colorPrimary, `--border-radius-sm` borderRadiusSM. */
  const tokenName = (name: string) =>
    name
      .replace(/-(sm|lg)$/, (_, size: string) => size.toUpperCase())
      .replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
  /** Spacing and quotes aside, and a number token with or without its `px`. */
  const normalise = (value: unknown) =>
    String(value)
      .replace(/\s+/g, '')
      .replace(/["']/g, '')
      .replace(/px$/, '')
      .replace(/^#fff$/, '#ffffff');

  it('are there', () => {
    expect(variables.length).toBeGreaterThan(30);
  });

  it.each(variables.map((v) => [v.name, v.value]))(
    "--%s is antd's token of that name under the console theme",
    (name, value) => {
      const expected = (token as unknown as Record<string, unknown>)[tokenName(name)];
      expect(expected, `no antd token ${tokenName(name)}`).toBeDefined();
      expect(normalise(value)).toBe(normalise(expected));
    },
  );
});
