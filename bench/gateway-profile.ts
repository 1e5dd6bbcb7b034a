/** Where a process's CPU time goes, from a V8 .cpuprofile: self time per area of the code and per function. */
import { readFileSync } from 'node:fs';

type TCpuProfile = {
  startTime: number;
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
};

/**
 * Markdown tables: share of busy samples per area, then the top `n` functions by self time. Samples before
 * `fromUs` (CLOCK_MONOTONIC in µs, the clock of V8's timestamps and of process.hrtime) are left out, so
 * start-up and warm-up do not count.
 */
export function summariseProfile(file: string, root: string, n: number, fromUs = 0): string {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as TCpuProfile;
  const byId = new Map(prof.nodes.map((x) => [x.id, x]));
  const self = new Map<string, number>();
  const area = new Map<string, number>();
  let total = 0;
  let at = prof.startTime;
  prof.samples.forEach((id, i) => {
    const dt = prof.timeDeltas[i] ?? 0;
    at += dt;
    if (at < fromUs) return;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    total += dt;
    const { functionName, url, lineNumber } = node.callFrame;
    const short = url.replace(/^file:\/\//, '').replace(root + '/', '');
    const name =
      `${functionName || '(anonymous)'} ${short ? `${short}:${lineNumber + 1}` : ''}`.trim();
    self.set(name, (self.get(name) ?? 0) + dt);
    const where =
      functionName === '(garbage collector)'
        ? 'garbage collection'
        : functionName === '(program)'
          ? 'native code outside JS (V8 (program))'
          : short.includes('apps/gateway/src')
            ? 'gateway code (apps/gateway/src)'
            : short.includes('node_modules/undici')
              ? 'undici (upstream client)'
              : short.startsWith('node:')
                ? 'Node core JS (http, net, streams, events)'
                : short === ''
                  ? 'natives called from JS (syscalls such as writev, parser)'
                  : 'other';
    area.set(where, (area.get(where) ?? 0) + dt);
  });
  const pct = (v: number) => `${((v / total) * 100).toFixed(1)}%`;
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  const areas = [...area.entries()].sort((a, b) => b[1] - a[1]);
  return [
    '| area | share of samples |',
    '|---|---:|',
    ...areas.map(([k, v]) => `| ${k} | ${pct(v)} |`),
    '',
    `Top ${n} functions by self time:`,
    '',
    '| function | self |',
    '|---|---:|',
    ...rows.map(([k, v]) => `| \`${k.replace(/\|/g, '\\|')}\` | ${pct(v)} |`),
  ].join('\n');
}
