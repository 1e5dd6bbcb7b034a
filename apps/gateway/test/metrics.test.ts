// Prometheus metrics of the gateway against a real Hardhat node: exact counters after known traffic, the upstream
// latency histogram and errors, bounded labels (an invented method name adds no series, an upstream label carries
// no URL path or query), flush lag and failures, WebSocket gauges, and who may scrape /metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { TChain } from '../src/chains';
import { loadChains, withUpstreams } from '../src/chains';
import { MemoryKeyStore } from '../src/key-cache';
import type { TLocalnet } from '../src/localnet';
import { startLocalnet } from '../src/localnet';
import { defaultRuTable } from '../src/metering';
import { createGatewayMetrics, isScrapeAllowed, upstreamLabel } from '../src/metrics';
import type { TGateway } from '../src/server';
import { startGateway } from '../src/server';
import type { TKeyInfo, UsageSink } from '../src/types';
import { MemoryUsageSink } from '../src/usage';
import type { TCountingProxy } from './helpers';
import { call, freePort, makeKey, rpc, sleep, startCountingProxy } from './helpers';

const TOKEN = 'metrics-test-token-0123456789abcdef';
// Hardhat's second default account.
const ACCOUNT1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
/** What a provider puts in its URL: it must never reach a label. */
const SECRET = 'provider-secret-9f8e7d';

let ln: TLocalnet;
let proxy: TCountingProxy;
let gw: TGateway;
let guarded: TGateway;
const keys = new MemoryKeyStore();
let failWrites = false;
const memory = new MemoryUsageSink();
const sink: UsageSink = {
  write: async (batch) => {
    if (failWrites) throw new Error('database down');
    await memory.write(batch);
  },
};

function addKey(overrides: Partial<TKeyInfo> = {}): TKeyInfo {
  const k = makeKey(overrides);
  keys.put(k);
  return k;
}

const endpoint = (k: TKeyInfo | { key: string }, chain = 'localnet') =>
  `${gw.url}/v1/${chain}/${k.key}`;

type TSample = { name: string; labels: Record<string, string>; value: number };

/** Parses the Prometheus text format (what a scraper reads). */
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

/** The value of the sample with exactly these labels (0 when absent, as Prometheus reads a missing series). */
function valueOf(samples: TSample[], name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).sort();
  const hit = samples.find(
    (s) =>
      s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === JSON.stringify(want),
  );
  return hit?.value ?? 0;
}

async function scrape(g: TGateway = gw, headers: Record<string, string> = {}) {
  const res = await fetch(`${g.url}/metrics`, { headers });
  const text = await res.text();
  return { status: res.status, text, samples: res.status === 200 ? parseMetrics(text) : [] };
}

beforeAll(async () => {
  ln = await startLocalnet({ port: await freePort() });
  // The upstream's URL carries a path and a query with a "provider key", as hosted providers' URLs do.
  proxy = await startCountingProxy(ln.url);
  const base = loadChains({});
  const localnet = base.find((c) => c.id === 'localnet')!;
  const chains: TChain[] = [
    // Nothing listens on port 9: every call fails there.
    { ...withUpstreams(localnet, { full: ['http://127.0.0.1:9'] }, []), id: 'deadnet' },
    ...base.map((c) =>
      c.id === 'localnet'
        ? withUpstreams(c, { full: [`${proxy.url}/${SECRET}/rpc?apikey=${SECRET}`] }, [ln.wsUrl])
        : c,
    ),
  ];
  gw = await startGateway({
    port: 0,
    host: '127.0.0.1',
    keys,
    chains,
    usageSink: sink,
    flushIntervalMs: 60_000,
    healthCheckIntervalMs: 60_000,
    metricsToken: '', // no token: loopback only, whatever METRICS_TOKEN this process has
  });
  guarded = await startGateway({
    port: 0,
    host: '127.0.0.1',
    keys,
    chains,
    flushIntervalMs: 60_000,
    healthCheckIntervalMs: 60_000,
    metricsToken: TOKEN,
  });
});

afterAll(async () => {
  await gw?.stop();
  await guarded?.stop();
  await proxy?.close();
  await ln?.stop();
});

describe('counters after known traffic', () => {
  it('counts calls by chain, method and outcome, refusals by code, and times each upstream request', async () => {
    const k = addKey();
    // A key whose bucket never holds a whole request: every call is rate-limited.
    const limited = addKey({ tier: { reqPerSec: 0.001, ruPerSec: 100_000, concurrency: 10 } });
    const before = (await scrape()).samples;
    expect(
      valueOf(before, 'rpc_requests_total', {
        chain: 'localnet',
        method: 'eth_blockNumber',
        outcome: 'ok',
      }),
    ).toBe(0);

    const N = 5;
    for (let i = 0; i < N; i++)
      expect((await rpc(endpoint(k), call('eth_blockNumber'))).status).toBe(200);
    // The node answers with a JSON-RPC error (HTTP 200): forwarded, outcome "error".
    const failed = await rpc(
      endpoint(k),
      call('eth_call', [{ to: ACCOUNT1, data: '0x12' }, 'pending-nonsense']),
    );
    expect((failed.body as { error?: unknown }).error).toBeDefined();
    // One batch: two forwarded in one upstream request, one refused in place.
    const batch = await rpc(endpoint(k), [
      call('eth_chainId', [], 1),
      call('eth_blockNumber', [], 2),
      call('eth_fooBar', [], 3),
    ]);
    expect((batch.body as unknown[]).length).toBe(3);
    // Unknown methods, the rate-limited key, a bad key, an unknown chain.
    expect((await rpc(endpoint(k), call('eth_fooBar'))).status).toBe(400);
    expect((await rpc(endpoint(k), call('made_up_method_xyz'))).status).toBe(400);
    for (let i = 0; i < 2; i++)
      expect((await rpc(endpoint(limited), call('eth_chainId'))).status).toBe(429);
    expect((await rpc(endpoint({ key: 'no-such-key' }), call('eth_chainId'))).status).toBe(401);
    expect((await rpc(endpoint(k, 'no-such-chain'), call('eth_chainId'))).status).toBe(404);
    // A chain whose only upstream is down.
    expect((await rpc(endpoint(k, 'deadnet'), call('eth_chainId'))).status).toBe(502);

    const { status, text, samples } = await scrape();
    expect(status).toBe(200);
    const calls = (method: string, outcome: string, chain = 'localnet') =>
      valueOf(samples, 'rpc_requests_total', { chain, method, outcome });
    expect(calls('eth_blockNumber', 'ok')).toBe(N + 1);
    expect(calls('eth_chainId', 'ok')).toBe(1);
    expect(calls('eth_call', 'error')).toBe(1);
    expect(calls('other', 'refused')).toBe(3); // eth_fooBar twice, made_up_method_xyz
    expect(calls('eth_chainId', 'refused')).toBe(2); // rate-limited
    expect(calls('eth_chainId', 'unavailable', 'deadnet')).toBe(1);
    const refusals = (code: number) =>
      valueOf(samples, 'gateway_refusals_total', { code: String(code) });
    expect(refusals(-32601)).toBe(3);
    expect(refusals(-32005)).toBe(2);
    expect(refusals(-32003)).toBe(1);
    expect(refusals(-32001)).toBe(1);
    // Only names from the RU table (or "other") and configured chains are label values.
    const series = samples.filter((s) => s.name === 'rpc_requests_total');
    expect(series.map((s) => s.labels.method)).not.toContain('eth_fooBar');
    expect(series.map((s) => s.labels.method)).not.toContain('made_up_method_xyz');
    expect(series.map((s) => s.labels.chain)).not.toContain('no-such-chain');

    // Every forwarded request timed once: N singles, the failed eth_call, one batch.
    const upstream = upstreamLabel(proxy.url);
    expect(upstream).toMatch(/^127\.0\.0\.1:\d+$/);
    const histogram = { chain: 'localnet', group: 'full', upstream };
    expect(valueOf(samples, 'upstream_request_duration_seconds_count', histogram)).toBe(N + 2);
    expect(
      valueOf(samples, 'upstream_request_duration_seconds_bucket', { ...histogram, le: '+Inf' }),
    ).toBe(N + 2);
    expect(valueOf(samples, 'upstream_request_duration_seconds_sum', histogram)).toBeGreaterThan(0);
    expect(
      valueOf(samples, 'upstream_errors_total', {
        chain: 'deadnet',
        upstream: '127.0.0.1:9',
        kind: 'network',
      }),
    ).toBe(1);
    // No upstream label holds a path, a query or the provider's key.
    for (const s of samples.filter((x) => x.labels.upstream !== undefined))
      expect(s.labels.upstream).toMatch(/^[^/?@]+:\d+$/);
    expect(text).not.toContain(SECRET);
    // Process metrics come with every registry.
    expect(valueOf(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('an invented method name adds no series (bounded cardinality)', async () => {
    const k = addKey();
    const labelsOf = (samples: TSample[]) =>
      new Set(
        samples.filter((s) => s.name === 'rpc_requests_total').map((s) => JSON.stringify(s.labels)),
      );
    await rpc(endpoint(k), call('eth_notAMethod_seed'));
    const before = (await scrape()).samples;
    const invented = Array.from(
      { length: 20 },
      (_, i) => `eth_invented_${i}_${Math.random().toString(36).slice(2)}`,
    );
    for (const m of invented) await rpc(endpoint(k), call(m));
    const after = await scrape();
    expect(labelsOf(after.samples)).toEqual(labelsOf(before));
    const other = { chain: 'localnet', method: 'other', outcome: 'refused' };
    expect(
      valueOf(after.samples, 'rpc_requests_total', other) -
        valueOf(before, 'rpc_requests_total', other),
    ).toBe(20);
    for (const m of invented) expect(after.text).not.toContain(m);

    // The same holds in the table itself: one counter object for every unknown name; prefix names share one.
    const metrics = createGatewayMetrics({ ruTable: defaultRuTable, chains: ['localnet'] });
    const first = metrics.callStats('localnet', false, 'x_1');
    expect(metrics.callStats('localnet', false, 'x_2')).toBe(first);
    expect(metrics.callStats('unknown-chain', false, 'eth_chainId').chain).toBe('other');
    expect(metrics.callStats('dn:node-1', true, 'eth_chainId').chain).toBe('dedicated');
    const prefixed = Object.keys(defaultRuTable.prefixes)[0];
    if (prefixed) {
      const a = metrics.callStats('localnet', false, `${prefixed}A`);
      expect(a.method).toBe(`${prefixed}*`);
      expect(metrics.callStats('localnet', false, `${prefixed}B`)).toBe(a);
    }
  });
});

describe('usage flush lag and failures', () => {
  it('shows the age of unwritten usage, counts failed writes, and drops to 0 once written', async () => {
    const k = addKey();
    await gw.flushUsage();
    expect(valueOf((await scrape()).samples, 'usage_flush_lag_seconds')).toBe(0);
    await rpc(endpoint(k), call('eth_chainId'));
    await sleep(20);
    const lag = valueOf((await scrape()).samples, 'usage_flush_lag_seconds');
    expect(lag).toBeGreaterThan(0);
    const failuresBefore = valueOf((await scrape()).samples, 'usage_flush_failures_total');
    failWrites = true;
    await expect(gw.flushUsage()).rejects.toThrow('database down');
    const during = (await scrape()).samples;
    expect(valueOf(during, 'usage_flush_failures_total')).toBe(failuresBefore + 1);
    expect(valueOf(during, 'usage_flush_lag_seconds')).toBeGreaterThanOrEqual(lag);
    failWrites = false;
    await gw.flushUsage();
    const after = (await scrape()).samples;
    expect(valueOf(after, 'usage_flush_lag_seconds')).toBe(0);
    expect(valueOf(after, 'usage_flush_failures_total')).toBe(failuresBefore + 1);
  });
});

describe('WebSocket gauges', () => {
  it('counts open sockets and subscriptions, on both sides', async () => {
    const k = addKey();
    const ws = new WebSocket(endpoint(k).replace('http', 'ws'));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const answered = new Promise<unknown>((resolve) =>
      ws.once('message', (d) => resolve(JSON.parse(String(d)))),
    );
    ws.send(JSON.stringify(call('eth_subscribe', ['newHeads'], 7)));
    expect(await answered).toMatchObject({ id: 7, result: expect.any(String) });
    const open = (await scrape()).samples;
    expect(valueOf(open, 'gateway_websocket_connections')).toBe(1);
    expect(valueOf(open, 'gateway_websocket_subscriptions', { side: 'client' })).toBe(1);
    expect(valueOf(open, 'gateway_websocket_subscriptions', { side: 'upstream' })).toBe(1);
    ws.close();
    for (let i = 0; i < 50; i++) {
      if (valueOf((await scrape()).samples, 'gateway_websocket_connections') === 0) break;
      await sleep(20);
    }
    const closed = (await scrape()).samples;
    expect(valueOf(closed, 'gateway_websocket_connections')).toBe(0);
    expect(valueOf(closed, 'gateway_websocket_subscriptions', { side: 'client' })).toBe(0);
  });
});

describe('who may scrape /metrics', () => {
  it('without a token: loopback clients only, never through a proxy', async () => {
    expect((await scrape()).status).toBe(200);
    expect((await scrape(gw, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(404);
    expect((await scrape(gw, { forwarded: 'for=203.0.113.7' })).status).toBe(404);
    const post = await fetch(`${gw.url}/metrics`, { method: 'POST' });
    expect(post.status).toBe(404);
  });

  it('with METRICS_TOKEN: 404 without the bearer token or with a wrong one, 200 with it', async () => {
    expect((await scrape(guarded)).status).toBe(404);
    expect((await scrape(guarded, { authorization: 'Bearer wrong-token' })).status).toBe(404);
    expect((await scrape(guarded, { authorization: `Basic ${TOKEN}` })).status).toBe(404);
    const ok = await scrape(guarded, { authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    // Its own registry: the other gateway's traffic is not in it.
    expect(ok.text).toContain('# TYPE rpc_requests_total counter');
    expect(ok.samples.filter((s) => s.name === 'rpc_requests_total')).toEqual([]);
    expect(valueOf(ok.samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('isScrapeAllowed, rule by rule', () => {
    const cases: [string | undefined, Record<string, string>, string | undefined, boolean][] = [
      [undefined, {}, '127.0.0.1', true],
      [undefined, {}, '127.8.9.10', true],
      [undefined, {}, '::1', true],
      [undefined, {}, '::ffff:127.0.0.1', true],
      [undefined, {}, '10.0.0.1', false],
      [undefined, {}, '::ffff:10.0.0.1', false],
      [undefined, {}, undefined, false],
      [undefined, { 'x-forwarded-for': '127.0.0.1' }, '127.0.0.1', false],
      [undefined, { 'x-real-ip': '1.2.3.4' }, '127.0.0.1', false],
      [TOKEN, {}, '127.0.0.1', false],
      [TOKEN, { authorization: `Bearer ${TOKEN}` }, '203.0.113.7', true],
      [TOKEN, { authorization: `bearer ${TOKEN}` }, '203.0.113.7', true],
      [TOKEN, { authorization: `Bearer ${TOKEN}x` }, '127.0.0.1', false],
      [TOKEN, { authorization: `Bearer ${TOKEN.slice(0, -1)}` }, '127.0.0.1', false],
    ];
    for (const [token, headers, address, allowed] of cases)
      expect(
        isScrapeAllowed(token, headers, address),
        JSON.stringify([token, headers, address]),
      ).toBe(allowed);
  });
});
