/** What every bench script writes into docs/benchmarks.md: the machine line, and its own marked section. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_DOC = path.join(ROOT, 'docs', 'benchmarks.md');

/** CPU (from lscpu), RAM, kernel and Node version, on one line. */
export function machine(): string {
  let lscpu = '';
  try {
    lscpu = execFileSync('lscpu', { encoding: 'utf8' })
      .split('\n')
      .filter((l) =>
        /^(Architecture|CPU\(s\)|Model name|Thread|Core|Socket|Hypervisor|L2|L3)/.test(l),
      )
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .join('; ');
  } catch {
    lscpu = os.cpus()[0]?.model ?? 'unknown CPU';
  }
  return `${lscpu}; RAM ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; ${os.type()} ${os.release()}; Node ${process.version}`;
}

/**
 * Replaces the block between `<!-- bench:<key>:start -->` and its end marker (or appends it), leaving every
 * other section as it was, and formats the file with prettier so `npm run format:check` stays green.
 */
export async function writeBenchSection(key: string, section: string): Promise<void> {
  // Every bench honours both spellings of "print, do not write" (BENCH_DOC=0, BENCH_WRITE_DOC=0).
  if (process.env.BENCH_DOC === '0' || process.env.BENCH_WRITE_DOC === '0') {
    console.log(`\n${section}`);
    return;
  }
  const start = `<!-- bench:${key}:start -->`;
  const end = `<!-- bench:${key}:end -->`;
  const block = `${start}\n${section.trimEnd()}\n${end}`;
  let text = existsSync(BENCH_DOC)
    ? readFileSync(BENCH_DOC, 'utf8')
    : '# Benchmarks\n\nFigures written by the scripts in `bench/`.\n';
  if (text.includes(start) && text.includes(end)) {
    text = text.slice(0, text.indexOf(start)) + block + text.slice(text.indexOf(end) + end.length);
  } else {
    text = `${text.trimEnd()}\n\n${block}\n`;
  }
  const prettier = await import('prettier');
  writeFileSync(
    BENCH_DOC,
    await prettier.format(text, {
      ...(await prettier.resolveConfig(BENCH_DOC)),
      parser: 'markdown',
    }),
  );
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
