/**
 * Tag colours that pass WCAG AA: antd's presets put 12 px text at about 2.8:1 on their tint, so these keep the
 * tint and border and take the palette's darkest shade for the text (axe checks the team pages in e2e).
 */
import type { CSSProperties } from 'react';

export const TAG_STYLE = {
  gold: { color: '#613400', background: '#fffbe6', borderColor: '#ffe58f' },
  blue: { color: '#002c8c', background: '#e6f4ff', borderColor: '#91caff' },
  green: { color: '#135200', background: '#f6ffed', borderColor: '#b7eb8f' },
  red: { color: '#820014', background: '#fff1f0', borderColor: '#ffa39e' },
  gray: { color: '#262626', background: '#fafafa', borderColor: '#d9d9d9' },
} satisfies Record<string, CSSProperties>;
