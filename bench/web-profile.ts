/**
 * bench:web's BENCH_WEB_PROFILE: where a cold dashboard load's main-thread time goes, by package and by folder of
 * our code. A V8 CPU profile (CDP Profiler) runs from navigation until the keys table has rendered; each sample's
 * time goes to the function it was in (self time), and that function's place in a minified JS file is mapped back
 * to its source through the build's source maps (build with `vite build --sourcemap`; without maps a sample counts
 * for its JS file). Parse and compile time V8 spends outside a function shows as "(program)".
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CDPSession } from '@playwright/test';
import { SourceMapConsumer } from 'source-map-js';
import { median } from './bench-doc';

type TCallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type TProfile = {
  nodes: { id: number; callFrame: TCallFrame }[];
  samples: number[];
  timeDeltas: number[];
};

/** Sampling every 100 µs: a cold load's second gives ≈ 10,000 samples. */
const SAMPLING_US = 100;

export async function startProfile(cdp: CDPSession): Promise<void> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  await cdp.send('Profiler.start');
}

export async function stopProfile(cdp: CDPSession): Promise<TProfile> {
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: TProfile };
  await cdp.send('Profiler.disable');
  return profile;
}

/** Where a source file's code belongs: a package (antd per component folder), or a folder of our code. */
export function sourceCategory(source: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(source);
  if (pkg) {
    const [, name, rest] = pkg;
    if (name === 'antd') {
      const component = /^(?:es|lib)\/([^/]+)\//.exec(rest!)?.[1];
      return component ? `antd/${component}` : 'antd';
    }
    return name!;
  }
  const ours = /(?:^|\/)(apps\/web\/src|packages\/[^/]+\/src)\/(.*)$/.exec(
    source.split(path.sep).join('/'),
  );
  if (ours) {
    const parts = ours[2]!.split('/');
    const folder = parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0]!;
    return `${ours[1] === 'apps/web/src' ? 'src' : ours[1]}/${folder}`;
  }
  return source;
}

/** A JS file's name without its content hash: `console-DJIMl8-m.js` → `console.js`. */
function chunkName(pathname: string): string {
  return path.basename(pathname).replace(/-[\w-]{8}\.js$/, '.js');
}

/** Maps positions in a build's JS files to source categories, reading each file's map once. */
export class SourceAttribution {
  private readonly maps = new Map<string, SourceMapConsumer | null>();

  constructor(private readonly dist: string) {}

  category(frame: TCallFrame): string {
    if (!frame.url) {
      return frame.functionName.startsWith('(') ? frame.functionName : '(V8 and browser built-ins)';
    }
    let pathname: string;
    try {
      pathname = new URL(frame.url).pathname;
    } catch {
      return frame.url;
    }
    if (!pathname.endsWith('.js')) return `${pathname} (inline script)`;
    // A JS file's own top level (the function at its very start): the evaluation of every module bundled into it,
    // which the profile does not tell apart.
    if (frame.lineNumber <= 0 && frame.columnNumber <= 0 && !frame.functionName) {
      return `${chunkName(pathname)} (top level)`;
    }
    const consumer = this.consumer(pathname);
    if (!consumer) return chunkName(pathname);
    const original = consumer.originalPositionFor({
      line: frame.lineNumber + 1,
      column: frame.columnNumber,
    });
    if (!original.source) return `${chunkName(pathname)} (unmapped)`;
    // Sources are named relative to the map's folder (`../../src/…` from apps/web/dist/assets): made absolute, so
    // our code is known by its place in the repository wherever the build was written.
    return sourceCategory(
      path.resolve(path.dirname(path.join(this.dist, pathname)), original.source),
    );
  }

  private consumer(pathname: string): SourceMapConsumer | null {
    if (!this.maps.has(pathname)) {
      const file = path.join(this.dist, `${pathname}.map`);
      this.maps.set(
        pathname,
        existsSync(file) ? new SourceMapConsumer(JSON.parse(readFileSync(file, 'utf8'))) : null,
      );
    }
    return this.maps.get(pathname)!;
  }
}

/** Self time in ms per category; "(idle)" is left out (the main thread waiting for the network). */
export function attribute(profile: TProfile, sources: SourceAttribution): Map<string, number> {
  const categoryOf = new Map<number, string>();
  for (const node of profile.nodes) categoryOf.set(node.id, sources.category(node.callFrame));
  const spent = new Map<string, number>();
  // timeDeltas[i] is the time from sample i - 1 to sample i: a sample stands for the time until the next one (as
  // DevTools counts it); the last one, with no next, for nothing.
  profile.samples.forEach((id, i) => {
    const category = categoryOf.get(id) ?? '(unknown)';
    if (category === '(idle)' || category === '(root)') return;
    spent.set(category, (spent.get(category) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  });
  return spent;
}

/** Per category, the median over loads of its ms (0 in a load where it did not appear), largest first. */
export function medianByCategory(loads: Map<string, number>[]): [string, number][] {
  const categories = new Set(loads.flatMap((l) => [...l.keys()]));
  return [...categories]
    .map((c) => [c, median(loads.map((l) => l.get(c) ?? 0))] as [string, number])
    .sort((a, b) => b[1] - a[1]);
}
