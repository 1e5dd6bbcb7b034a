// antd-static-styles.ts: the stylesheet built for antd covers every antd component the app imports, under one
// token (the app's theme), and ends with the cache-path rule antd reads to skip generating those styles.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { extractAntdStyles } from './antd-static-styles';

const SRC = fileURLToPath(new URL('./src/', import.meta.url));

/** antd exports without a style of their own. */
const NO_STYLE = new Set(['ConfigProvider', 'theme', 'unstableSetRender']);
/** Left to run-time generation: big and on one or two pages only (antd-static-styles.ts says why). */
const AT_RUN_TIME = new Set(['DatePicker', 'Steps', 'Segmented']);
/** The name antd registers a component's style under, where it differs from the export. */
const STYLE_NAME: Record<string, string> = {
  Row: 'Grid',
  Col: 'Grid',
  message: 'Message',
  notification: 'Notification',
};

/** Value imports from 'antd' in the app's own (non-test) source files. */
function antdImports(): Set<string> {
  const names = new Set<string>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
    (f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f),
  );
  for (const file of files) {
    const source = readFileSync(path.join(SRC, file), 'utf8');
    for (const m of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'antd'/g)) {
      for (const part of m[1]!.split(',')) {
        const name = part
          .trim()
          .split(/\s+as\s+/)[0]!
          .trim();
        if (name && !name.startsWith('type ')) names.add(name);
      }
    }
  }
  return names;
}

let css = '';
/** cache path (token key | component | prefixes) → style hash */
let map = new Map<string, string>();

beforeAll(() => {
  css = extractAntdStyles();
  const rule = /\.data-ant-cssinjs-cache-path\{content:"([^"]*)";\}$/.exec(css);
  map = new Map(
    (rule?.[1] ?? '')
      .split(';')
      .filter(Boolean)
      .map((entry) => entry.split(':') as [string, string]),
  );
});

describe('the antd stylesheet made at build time', () => {
  test('ends with the cache-path map, one entry per style it holds', () => {
    expect(map.size).toBeGreaterThan(30);
    for (const [, hash] of map) expect(hash).toMatch(/^[a-z0-9]+$/);
    // Every mapped component's rules are in the file (a path without its CSS would leave it unstyled).
    expect(css).toContain('.ant-btn');
    expect(css).toContain('.ant-table-wrapper');
  });

  test("every component style is under one token key, the app's theme (not a popup panel's own)", () => {
    const tokens = new Set(
      [...map.keys()].filter((p) => !p.includes('|ant-design-icons|')).map((p) => p.split('|')[0]),
    );
    expect(tokens.size).toBe(1);
  });

  test('every antd component the app imports is in it, or is named as generated at run time', () => {
    const components = new Set([...map.keys()].map((p) => p.split('|')[1]!.split('-')[0]));
    const imported = antdImports();
    expect(imported.has('Button')).toBe(true);
    const missing = [...imported].filter(
      (name) =>
        !NO_STYLE.has(name) && !AT_RUN_TIME.has(name) && !components.has(STYLE_NAME[name] ?? name),
    );
    expect(missing).toEqual([]);
    for (const name of AT_RUN_TIME) expect(components.has(name)).toBe(false);
  });
});
