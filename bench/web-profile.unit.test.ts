// bench:web's profile attribution (web-profile.ts): a CPU profile's self time by package, antd component and folder
// of our code, through a build's source maps.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SourceMapGenerator } from 'source-map-js';
import { afterAll, describe, expect, it } from 'vitest';
import { attribute, medianByCategory, sourceCategory, SourceAttribution } from './web-profile';

describe('sourceCategory', () => {
  it.each([
    ['../../node_modules/react-dom/cjs/react-dom-client.production.js', 'react-dom'],
    ['../../node_modules/@ant-design/cssinjs/es/index.js', '@ant-design/cssinjs'],
    ['../../node_modules/antd/es/table/InternalTable.js', 'antd/table'],
    ['../../node_modules/antd/es/index.js', 'antd'],
    ['../../apps/web/src/features/api-keys/components/api-keys-table.tsx', 'src/features/api-keys'],
    ['../../apps/web/src/lib/format-number.ts', 'src/lib'],
    ['../../apps/web/src/main.tsx', 'src/main.tsx'],
    ['../../packages/contract/src/api-keys/schemas.ts', 'packages/contract/src/api-keys'],
    ['virtual:antd-styles.css', 'virtual:antd-styles.css'],
  ])('%s is %s', (source, category) => {
    expect(sourceCategory(source)).toBe(category);
  });
});

describe('attribute', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'web-profile-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // console-AbCdEf12.js: one line; column 0 maps to antd's table, column 100 to our keys table.
  const map = new SourceMapGenerator({ file: 'console-AbCdEf12.js' });
  map.addMapping({
    generated: { line: 1, column: 0 },
    original: { line: 10, column: 0 },
    source: '../../../../node_modules/antd/es/table/Table.js',
  });
  map.addMapping({
    generated: { line: 1, column: 100 },
    original: { line: 3, column: 2 },
    source: '../../src/features/api-keys/components/api-keys-table.tsx',
  });
  // Where the web build writes (apps/web/dist/assets): sources are named relative to the map's folder.
  const dist = path.join(root, 'apps/web/dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'assets/console-AbCdEf12.js.map'), map.toString());

  const url = 'http://localhost:3610/assets/console-AbCdEf12.js';
  const frame = (
    id: number,
    functionName: string,
    fileUrl: string,
    lineNumber = 0,
    columnNumber = 0,
  ) => ({
    id,
    callFrame: { functionName, url: fileUrl, lineNumber, columnNumber },
  });
  const profile = {
    nodes: [
      frame(1, '(root)', ''),
      frame(2, '(program)', ''),
      frame(3, '(idle)', ''),
      frame(4, 'renderTable', url, 0, 5),
      frame(5, 'render', url, 0, 120),
      frame(6, '', url, 0, 0), // the file's top level
      frame(7, 'JSON.parse', ''),
      frame(8, 'load', 'http://localhost:3610/assets/app-XyZ12345.js', 3, 9), // no map for app
    ],
    // Each sample stands for the time until the next (timeDeltas[i + 1]).
    samples: [2, 3, 4, 4, 5, 6, 7, 8, 1],
    timeDeltas: [0, 1000, 50_000, 2000, 3000, 4000, 500, 700, 900],
  };

  it('gives each sample to its function, mapped to where its code came from, idle and root left out', () => {
    const spent = attribute(profile, new SourceAttribution(dist));
    expect(Object.fromEntries(spent)).toEqual({
      '(program)': 1,
      'antd/table': 5,
      'src/features/api-keys': 4,
      'console.js (top level)': 0.5,
      '(V8 and browser built-ins)': 0.7,
      'app.js': 0.9,
    });
  });

  it('takes the median per category over loads, a missing category counting 0', () => {
    const loads = [
      new Map([
        ['a', 10],
        ['b', 1],
      ]),
      new Map([['a', 30]]),
      new Map([
        ['a', 20],
        ['b', 5],
      ]),
    ];
    expect(medianByCategory(loads)).toEqual([
      ['a', 20],
      ['b', 1],
    ]);
  });
});
