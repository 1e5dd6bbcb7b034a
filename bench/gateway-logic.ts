/**
 * The gateway's own work per call, without sockets, with an upstream that answers at once. What is left is key
 * lookup, allowlists, token buckets, routing, RU metering, the RU budget and usage aggregation (plus the plumbing
 * between them). Two entries are measured:
 *   - the raw front's (`serveReadCall`, what production calls for a plain POST: the body already read, the answer
 *     written through a TOut), the headline figure;
 *   - node:http's (`createHttpHandler`, driven with stand-in request and response objects), which adds the
 *     per-call emitters and closures of that path.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadChains } from '../apps/gateway/src/chains';
import type { TGatewayContext } from '../apps/gateway/src/context';
import { FilterOwners } from '../apps/gateway/src/filter-owners';
import { DedicatedRoutes, emptyDnStore } from '../apps/gateway/src/dedicated';
import { createCallPolicy } from '../apps/gateway/src/method-policy';
import { RuBudget } from '../apps/gateway/src/budget';
import { parsePath } from '../apps/gateway/src/context';
import { createHttpHandler, serveReadCall, type TOut } from '../apps/gateway/src/http-handler';
import { MemoryKeyStore } from '../apps/gateway/src/key-cache';
import { KeyLimiter } from '../apps/gateway/src/limits';
import { createGatewayMetrics } from '../apps/gateway/src/metrics';
import { defaultRuTable } from '../apps/gateway/src/metering';
import type { UpstreamSet } from '../apps/gateway/src/upstreams';
import { UpstreamGroup } from '../apps/gateway/src/upstreams';
import { MemoryUsageSink, UsageAggregator } from '../apps/gateway/src/usage';

const BODY = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}');
const REPLY = Buffer.from('{"jsonrpc":"2.0","id":1,"result":"0x12a05f2"}');

function context(): TGatewayContext {
  const chains = loadChains({});
  const empty = () => new UpstreamGroup('x', []);
  const full = new UpstreamGroup('full', []);
  const upstreams = {
    chains: new Map(
      chains.map((c) => [
        c.id,
        {
          full,
          archive: empty(),
          mev: empty(),
          bundler: {
            default: empty(),
            stackup: empty(),
            candide: empty(),
            pimlico: empty(),
            etherspot: empty(),
          },
          ws: [],
          head: 1000,
        },
      ]),
    ),
    send: async () => ({ status: 200, body: REPLY, upstream: 'stub' }),
    sendTo: (_g: unknown, _b: unknown, _quick: boolean, done: (r: unknown) => void) =>
      done({ status: 200, body: REPLY, upstream: 'stub' }),
  } as unknown as UpstreamSet;
  const chainMap = new Map(chains.map((c) => [c.id, { ...c, available: true }]));
  return {
    chains: chainMap,
    // No dedicated nodes in this bench: the /v1/ path only.
    dedicated: new DedicatedRoutes(emptyDnStore, upstreams, chainMap),
    keys: new MemoryKeyStore([
      {
        key: 'bench-key',
        keyId: 'bench',
        accountId: 'bench-account',
        paused: false,
        archiveMode: false,
        mev: '',
        bundler: 'default',
        allowlists: { origins: [], ips: [], contracts: [], methods: [] },
        tier: { reqPerSec: 1e12, ruPerSec: 1e15, concurrency: 1e9 },
      },
    ]),
    // A real budget (holds and settles per call), so the figure includes the exact-billing work.
    balance: new RuBudget([['bench-account', Number.MAX_SAFE_INTEGER]]),
    upstreams,
    limiter: new KeyLimiter(),
    // Recorded as in production: the figure includes the metrics' per-call work.
    metrics: createGatewayMetrics({ ruTable: defaultRuTable, chains: chains.map((c) => c.id) }),
    usage: new UsageAggregator({
      sink: new MemoryUsageSink(),
      ruTableVersion: defaultRuTable.version,
    }),
    ruTable: defaultRuTable,
    notifyPaused: () => {},
    policy: createCallPolicy(defaultRuTable),
    filters: new FilterOwners(),
    maxBodyBytes: 2 * 1024 * 1024,
    maxBatch: 100,
    trustProxy: 0,
  };
}

/** The best of `runs` runs of `calls(n)` (n calls each): mean µs of CPU per call. */
async function bestOf(
  n: number,
  runs: number,
  calls: (n: number) => Promise<void> | void,
): Promise<number> {
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const c0 = process.cpuUsage();
    await calls(n);
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / n);
  }
  return best;
}

/**
 * Mean µs of CPU per call through the raw front's entry (best of `runs` × `n` sequential calls). The stub upstream
 * answers at once, so each call is answered before serveReadCall returns: a plain loop, no promise per call.
 */
export async function measureRawFrontLogic(n = 20_000, runs = 5): Promise<number> {
  const ctx = context();
  const target = parsePath('/v1/localnet/bench-key');
  if (!target) throw new Error('the bench path does not parse');
  let answers = 0;
  let wrong: number | undefined;
  const out: TOut = {
    acceptEncoding: undefined,
    sent: false,
    // Not a throw here: serveReadCall would catch it and answer again.
    reply(status) {
      answers++;
      if (status !== 200) wrong ??= status;
    },
    destroy() {
      wrong ??= -1;
    },
  };
  return bestOf(n, runs, (count) => {
    for (let i = 0; i < count; i++) {
      serveReadCall(ctx, out, target, undefined, '127.0.0.1', BODY, performance.now());
      if (answers !== 1) throw new Error(`a bench call was answered ${answers} times`);
      answers = 0;
    }
    if (wrong !== undefined)
      throw new Error(wrong === -1 ? 'a bench call was cut' : `a bench call was answered ${wrong}`);
  });
}

/** Mean µs of CPU per call through node:http's handler (best of `runs` × `n` sequential calls). */
export async function measureGatewayLogic(n = 20_000, runs = 5): Promise<number> {
  const handler = createHttpHandler(context());
  const socket = { remoteAddress: '127.0.0.1' };
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = new EventEmitter() as EventEmitter & Record<string, unknown>;
      req.url = '/v1/localnet/bench-key';
      req.method = 'POST';
      req.headers = { 'content-type': 'application/json', 'content-length': String(BODY.length) };
      req.socket = socket;
      req.resume = () => {};
      const res = {
        headersSent: false,
        writeHead(status: number) {
          if (status !== 200) reject(new Error(`the bench call was answered ${status}`));
          return res;
        },
        end() {
          resolve();
        },
        destroy() {},
      };
      handler(req as unknown as IncomingMessage, res as unknown as ServerResponse);
      req.emit('data', BODY);
      req.emit('end');
    });
  return bestOf(n, runs, async (count) => {
    for (let i = 0; i < count; i++) await one();
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`raw front: ${(await measureRawFrontLogic()).toFixed(1)} µs CPU per call`);
  console.log(`node:http: ${(await measureGatewayLogic()).toFixed(1)} µs CPU per call`);
}
