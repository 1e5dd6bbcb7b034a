// The console's /metrics: dispatcher calls by method and code, HTTP requests by route, job queue depth and notice
// sockets; loopback-only without METRICS_TOKEN, bearer-only with it; and the Grafana dashboard in docs/ refers only
// to metrics that the console or the gateway expose.
import { readFileSync } from 'node:fs';
import { ERROR_CODES } from '@rpc/contract';
import { createGatewayMetrics, defaultRuTable } from '@rpc/gateway';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ARGON2_COST } from '../src/lib/password';
import { createServer, type TConsoleServer } from '../src/server';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, TEST_API_KEY_SECRET, type THarness } from './helpers/harness';

const TOKEN = 'console-metrics-token-0123456789abcdef';
const DASHBOARD = new URL('../../../docs/grafana/rpc-console.json', import.meta.url);

type TSample = { name: string; labels: Record<string, string>; value: number };

function parseMetrics(text: string): TSample[] {
  const out: TSample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1] as string] = l[2] as string;
    out.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return out;
}

function valueOf(samples: TSample[], name: string, labels: Record<string, string> = {}): number {
  const want = JSON.stringify(Object.entries(labels).sort());
  const hit = samples.find(
    (s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === want,
  );
  return hit?.value ?? 0;
}

/** Every sample name a registry's text exposes (a histogram's _bucket, _sum and _count included). */
function exposedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, type] = m as unknown as [string, string, string];
    names.add(name);
    if (type === 'histogram' || type === 'summary')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
  }
  return names;
}

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
]);

/** The metric names a PromQL expression reads: identifiers that are not functions, keywords or label names. */
function metricNamesOf(expr: string): string[] {
  const cleaned = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\b\d+(\.\d+)?(e[+-]?\d+)?\b/gi, ' ');
  const names: string[] = [];
  for (const m of cleaned.matchAll(/([a-zA-Z_:][\w:]*)\s*(\()?/g)) {
    const word = m[1] as string;
    if (m[2] || PROMQL_WORDS.has(word)) continue;
    names.push(word);
  }
  return names;
}

type TPanel = { type: string; title?: string; targets?: { expr?: string }[]; panels?: TPanel[] };
type TDashboard = {
  schemaVersion: number;
  panels: TPanel[];
  templating: { list: { name: string; type: string; query: unknown }[] };
};

let h: THarness;
let guarded: TConsoleServer;

beforeAll(async () => {
  h = await createHarness(TEST_DATABASES[0]!.open);
  // A second console on the same database, with METRICS_TOKEN: its own registry, bearer-only.
  guarded = await createServer({
    db: h.database.db,
    mailer: h.server.deps.mailer,
    throttle: h.server.deps.throttle,
    argon2Cost: TEST_ARGON2_COST,
    logger: pino({ level: 'silent' }),
    webDistDir: '/nonexistent',
    env: {
      PORT: 0,
      PUBLIC_URL: 'http://console.test',
      GATEWAY_PUBLIC_URL: 'http://gw.test',
      API_KEY_SECRET: TEST_API_KEY_SECRET,
      METRICS_TOKEN: TOKEN,
    },
  });
});

afterAll(async () => {
  await guarded?.stop();
  await h?.close();
});

async function scrape(
  server: TConsoleServer = h.server,
  o: { remoteAddress?: string; headers?: Record<string, string> } = {},
) {
  const res = await server.app.inject({
    method: 'GET',
    url: '/metrics',
    remoteAddress: o.remoteAddress ?? '127.0.0.1',
    headers: o.headers ?? {},
  });
  return {
    status: res.statusCode,
    text: res.body,
    samples: res.statusCode === 200 ? parseMetrics(res.body) : [],
  };
}

describe('console metrics', () => {
  it('counts dispatcher calls by catalogue method and error code, and HTTP requests by route', async () => {
    const before = (await scrape()).samples;
    const calls = (samples: TSample[], method: string, code: number) =>
      valueOf(samples, 'console_rpc_calls_total', { method, code: String(code) });
    for (let i = 0; i < 3; i++) expect((await h.call('hub_getConfig')).ok).toBe(true);
    const profile = await h.call('hub_getUserProfile'); // no session
    expect(profile.ok).toBe(false);
    const unknown = await h.raw({ method: 'hub_noSuchMethod_abc', params: {}, id: 1 });
    expect(unknown.error?.code).toBe(ERROR_CODES.METHOD_NOT_FOUND);
    // Over HTTP too: one request through the route, one dispatcher call.
    const res = await h.server.app.inject({
      method: 'POST',
      url: '/api',
      payload: { method: 'hub_getConfig', params: {}, id: 2 },
    });
    expect(res.statusCode).toBe(200);

    const after = (await scrape()).samples;
    expect(calls(after, 'hub_getConfig', 0) - calls(before, 'hub_getConfig', 0)).toBe(4);
    expect(calls(after, 'hub_getUserProfile', profile.error!.code)).toBe(1);
    // A name not in the catalogue is "other": callers cannot add series.
    expect(calls(after, 'other', ERROR_CODES.METHOD_NOT_FOUND)).toBe(1);
    expect(after.some((s) => s.labels.method === 'hub_noSuchMethod_abc')).toBe(false);
    const api = { route: '/api', method: 'POST', status: '200' };
    expect(
      valueOf(after, 'console_http_requests_total', api) -
        valueOf(before, 'console_http_requests_total', api),
    ).toBe(1);
    expect(valueOf(after, 'console_notice_sockets')).toBe(0);
    expect(valueOf(after, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('unknown paths are one "unmatched" route, not one series per URL', async () => {
    await h.server.app.inject({ method: 'GET', url: '/no/such/path/secret-token-123' });
    const { samples, text } = await scrape();
    expect(
      valueOf(samples, 'console_http_requests_total', {
        route: 'unmatched',
        method: 'GET',
        status: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('secret-token-123');
  });

  it('shows the depth of each job queue (pg-boss)', async () => {
    const id = await h.server.deps.jobs.send('metrics-probe', { n: 1 });
    expect(id).toEqual(expect.any(String));
    const { samples } = await scrape();
    expect(valueOf(samples, 'console_job_queue_depth', { queue: 'metrics-probe' })).toBe(1);
  });

  it('answers loopback clients only when no token is set', async () => {
    expect((await scrape()).status).toBe(200);
    expect((await scrape(h.server, { remoteAddress: '203.0.113.9' })).status).toBe(404);
    expect((await scrape(h.server, { remoteAddress: '::1' })).status).toBe(200);
    const viaProxy = await scrape(h.server, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(viaProxy.status).toBe(404);
  });

  it('with METRICS_TOKEN: the bearer token only, from anywhere', async () => {
    expect((await scrape(guarded)).status).toBe(404);
    const wrong = { authorization: 'Bearer not-the-token-at-all' };
    expect((await scrape(guarded, { headers: wrong })).status).toBe(404);
    const right = { authorization: `Bearer ${TOKEN}` };
    const ok = await scrape(guarded, { remoteAddress: '203.0.113.9', headers: right });
    expect(ok.status).toBe(200);
    // Its own registry: the first server's calls are not in it.
    expect(ok.samples.filter((s) => s.name === 'console_rpc_calls_total')).toEqual([]);
  });
});

describe('the Grafana dashboard (docs/grafana/rpc-console.json)', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as TDashboard;
  const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
  const exprs = panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? ''));

  it('is a dashboard with panels, a Prometheus datasource variable and a current schema', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(38);
    expect(panels.filter((p) => p.type !== 'row').length).toBeGreaterThanOrEqual(10);
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ type: 'datasource', query: 'prometheus' }),
    );
    for (const p of panels.filter((x) => x.type !== 'row'))
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
  });

  it('reads only metric names the console or the gateway exposes, and covers each of them that matters', async () => {
    const consoleNames = exposedNames((await scrape()).text);
    const gatewayNames = exposedNames(
      await createGatewayMetrics({ ruTable: defaultRuTable, chains: [] }).registry.metrics(),
    );
    const used = new Set(exprs.flatMap(metricNamesOf));
    for (const v of dashboard.templating.list) {
      const q = typeof v.query === 'string' ? v.query : (v.query as { query?: string }).query;
      const m = /label_values\(\s*([a-zA-Z_:][\w:]*)/.exec(q ?? '');
      if (m) used.add(m[1] as string);
    }
    const unknown = [...used].filter((n) => !consoleNames.has(n) && !gatewayNames.has(n));
    expect(unknown).toEqual([]);
    // Process metrics are in both registries.
    for (const n of ['process_cpu_seconds_total', 'process_resident_memory_bytes']) {
      expect(consoleNames.has(n), n).toBe(true);
      expect(gatewayNames.has(n), n).toBe(true);
    }
    // The panels the issue asks for.
    for (const n of [
      'rpc_requests_total',
      'upstream_request_duration_seconds_bucket',
      'upstream_errors_total',
      'gateway_refusals_total',
      'usage_flush_lag_seconds',
      'gateway_websocket_connections',
      'console_notice_sockets',
      'console_job_queue_depth',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
    ])
      expect(used.has(n), n).toBe(true);
  });

  it('the name extraction sees through PromQL', () => {
    expect(
      metricNamesOf(
        'histogram_quantile(0.99, sum by (le, upstream) (rate(upstream_request_duration_seconds_bucket{chain=~"$chain"}[$__rate_interval])))',
      ),
    ).toEqual(['upstream_request_duration_seconds_bucket']);
    expect(metricNamesOf('sum(rate(a_total{x="y"}[5m])) / on(job) group_left b_total')).toEqual([
      'a_total',
      'b_total',
    ]);
  });
});
