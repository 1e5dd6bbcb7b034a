/** Shared per-gateway state and the checks HTTP and WebSocket paths both apply. */
import type { IncomingMessage } from 'node:http';
import type { TChain } from './chains';
import type { TGatewayError } from './errors';
import { ERR } from './errors';
import type { KeyLimiter } from './limits';
import type { FilterOwners } from './filter-owners';
import type { TGatewayMetrics } from './metrics';
import type { TRuTable } from './metering';
import type { TRoute } from './routing';
import { isIpAllowed, isOriginAllowed } from './routing';
import type { TChainUpstreams, UpstreamGroup, UpstreamSet } from './upstreams';
import type { DedicatedRoutes } from './dedicated';
import type { RefusalCounter } from './refusals';
import type { RequestLog } from './request-log';
import type { UsageAggregator } from './usage';
import type {
  AccountBalance,
  KeyStore,
  TKeyInfo,
  TRequestOutcome,
  TRequestTransport,
} from './types';

export type TGatewayContext = {
  chains: Map<string, TChain>;
  keys: KeyStore;
  /** dedicated nodes at /dn/{nodeId}/{apiKey} */
  dedicated: DedicatedRoutes;
  balance: AccountBalance;
  upstreams: UpstreamSet;
  limiter: KeyLimiter;
  usage: UsageAggregator;
  /** Counts refusals of known keys for the console's statistics; absent when the sink does not take them. */
  refusals?: RefusalCounter;
  /** The per-key request log (request-log.ts); absent when the sink does not take it. */
  requestLog?: RequestLog;
  /** Prometheus metrics of this gateway (metrics.ts). */
  metrics: TGatewayMetrics;
  ruTable: TRuTable;
  notifyPaused: (accountId: string, keyId: string, chain: string) => void;
  /** Whether a method (with its params) may be forwarded at all for this key; an error refuses it. */
  policy: (method: string, params: unknown, key: TKeyInfo) => TGatewayError | undefined;
  /** Filters each key created here (for contract allowlists). */
  filters: FilterOwners;
  maxBodyBytes: number;
  maxBatch: number;
  /** Proxies of ours in front (0: none): the client's address is X-Forwarded-For's entry this many from the right. */
  trustProxy: number;
};

/** `chain` is the chain id (/v1/) or the node id (/dn/, with `dedicated` true). */
export type TPathTarget = { chain: string; apiKey: string; dedicated: boolean };

/**
 * `/v1/{chain}/{apiKey}` or a dedicated node's `/dn/{nodeId}/{apiKey}` (query string ignored) → its parts, without
 * allocating a URL object.
 */
export function parsePath(url: string): TPathTarget | undefined {
  const dedicated = url.startsWith('/dn/');
  if (!dedicated && !url.startsWith('/v1/')) return undefined;
  const q = url.indexOf('?');
  const path = q === -1 ? url.slice(4) : url.slice(4, q);
  const slash = path.indexOf('/');
  if (slash <= 0) return undefined;
  let apiKey = path.slice(slash + 1);
  if (apiKey.endsWith('/')) apiKey = apiKey.slice(0, -1);
  if (!apiKey || apiKey.includes('/')) return undefined;
  return { chain: path.slice(0, slash), apiKey, dedicated };
}

/** `dedicated`: a dedicated node's call — counted, charged no RUs, not held to the shared tier's limits. */
export type TAdmitted = { chain: TChain; key: TKeyInfo; ups: TChainUpstreams; dedicated: boolean };

/**
 * The caller's address: the socket's, or behind `trustProxy` proxies of ours the X-Forwarded-For entry that many
 * places from the right (the one our outermost proxy appended; what stands left of it the client wrote itself).
 */
export function clientIp(ctx: TGatewayContext, req: IncomingMessage): string {
  return clientIpOf(ctx, req.headers['x-forwarded-for'], req.socket.remoteAddress);
}

/** clientIp from the header's value and the socket's address (the raw front has no IncomingMessage). */
export function clientIpOf(
  ctx: TGatewayContext,
  xff: string | string[] | undefined,
  remoteAddress: string | undefined,
): string {
  if (ctx.trustProxy > 0 && typeof xff === 'string' && xff) {
    const entries = xff.split(',');
    const entry = (entries[Math.max(0, entries.length - ctx.trustProxy)] as string).trim();
    if (entry) return entry;
  }
  return remoteAddress ?? '';
}

/**
 * Key, chain, origin and IP checks shared by HTTP and WebSocket. Order: cheapest and least revealing first.
 * `transport` is only for the request log of a refused key.
 */
export function admit(
  ctx: TGatewayContext,
  target: TPathTarget,
  origin: string | undefined,
  ip: string,
  transport: TRequestTransport = 'http',
): TAdmitted | TGatewayError {
  if (target.dedicated) return admitDedicated(ctx, target, origin, ip, transport);
  const chain = ctx.chains.get(target.chain);
  if (!chain) return rejected(ctx, ERR.unknownChain(target.chain));
  const key = ctx.keys.get(target.apiKey);
  if (!key || key.deleted) return rejected(ctx, ERR.invalidKey());
  const c = chain.id;
  if (origin !== undefined && !isOriginAllowed(key.allowlists.origins, origin))
    return refusedAtDoor(ctx, key, c, transport, ERR.originDenied(origin));
  if (key.paused) return refusedAtDoor(ctx, key, c, transport, ERR.pausedKey());
  if (!isIpAllowed(key.allowlists.ips, ip))
    return refusedAtDoor(ctx, key, c, transport, ERR.ipDenied(ip));
  const ups = ctx.upstreams.chains.get(chain.id);
  if (!chain.available || !ups)
    return refusedAtDoor(ctx, key, c, transport, ERR.chainUnavailable(chain.id));
  return { chain, key, ups, dedicated: false };
}

/** A refusal of a known key before any call was read: counted, and logged with no method. */
function refusedAtDoor(
  ctx: TGatewayContext,
  key: TKeyInfo,
  chain: string,
  transport: TRequestTransport,
  e: TGatewayError,
): TGatewayError {
  logRefusal(ctx, key, chain, '', transport, e, 0);
  return refused(ctx, key, chain, e);
}

/**
 * A dedicated node's call: a live key of the node's owner (another account's node answers as an unknown one, so
 * nothing about it is revealed), the key's own origin, pause and IP rules, and a node that serves now.
 */
function admitDedicated(
  ctx: TGatewayContext,
  target: TPathTarget,
  origin: string | undefined,
  ip: string,
  transport: TRequestTransport,
): TAdmitted | TGatewayError {
  const key = ctx.keys.get(target.apiKey);
  if (!key || key.deleted) return rejected(ctx, ERR.invalidKey());
  const node = ctx.dedicated.get(target.chain);
  if (!node || node.accountId !== key.accountId) return rejected(ctx, ERR.unknownDnNode());
  const chainId = `dn:${node.nodeId}`;
  if (origin !== undefined && !isOriginAllowed(key.allowlists.origins, origin))
    return refusedAtDoor(ctx, key, chainId, transport, ERR.originDenied(origin));
  if (key.paused) return refusedAtDoor(ctx, key, chainId, transport, ERR.pausedKey());
  if (!isIpAllowed(key.allowlists.ips, ip))
    return refusedAtDoor(ctx, key, chainId, transport, ERR.ipDenied(ip));
  if (!node.serving || !node.http || Date.now() >= node.expiresAt)
    return refusedAtDoor(ctx, key, chainId, transport, ERR.dnNodeNotServing());
  const { chain, ups } = ctx.dedicated.resolve(node);
  return { chain, key, ups, dedicated: true };
}

/** Counts a refusal of a known key (refusals.ts) and passes the error on; `count` calls for a whole batch. */
export function refused(
  ctx: TGatewayContext,
  key: TKeyInfo,
  chain: string,
  e: TGatewayError,
  count = 1,
): TGatewayError {
  ctx.refusals?.note(key.accountId, key.keyId, chain, e.code, count);
  ctx.metrics.refused(e.code, count);
  return e;
}

/** Characters of a method name kept in the request log. */
export const MAX_LOGGED_METHOD = 100;

/**
 * One entry in the key's request log (request-log.ts), when the sink keeps one: a push onto a bounded array.
 * Never given params, results or bodies.
 */
export function logCall(
  ctx: TGatewayContext,
  key: TKeyInfo,
  chain: string,
  method: string,
  transport: TRequestTransport,
  outcome: TRequestOutcome,
  errorCode: number | null,
  latencyMs: number,
  ru: number,
  at = Date.now(),
): void {
  const log = ctx.requestLog;
  if (!log) return;
  // Past a cap only a count is kept: no entry is made for it.
  if (!log.accepts(key.keyId)) return log.drop(key.accountId, key.keyId, at);
  log.add({
    at,
    accountId: key.accountId,
    keyId: key.keyId,
    chain,
    // A refused call's method is whatever the caller sent: only its start is kept.
    method: method.length > MAX_LOGGED_METHOD ? method.slice(0, MAX_LOGGED_METHOD) : method,
    transport,
    outcome,
    errorCode,
    latencyMs: Math.round(latencyMs),
    ru,
  });
}

/** A refused call of a known key in its request log: outcome 'refused' with the code it was answered with. */
export function logRefusal(
  ctx: TGatewayContext,
  key: TKeyInfo,
  chain: string,
  method: string,
  transport: TRequestTransport,
  e: TGatewayError,
  latencyMs: number,
): void {
  if (ctx.requestLog) logCall(ctx, key, chain, method, transport, 'refused', e.code, latencyMs, 0);
}

/**
 * A refusal of a known key's call that is not counted as a refusal of the key (malformed input: no method, bad
 * JSON, a batch too big): counted in the metrics, logged in the key's request log.
 */
export function rejectedFor(
  ctx: TGatewayContext,
  a: TAdmitted,
  transport: TRequestTransport,
  e: TGatewayError,
  method = '',
  started?: number,
): TGatewayError {
  logRefusal(
    ctx,
    a.key,
    a.chain.id,
    method,
    transport,
    e,
    started === undefined ? 0 : performance.now() - started,
  );
  return rejected(ctx, e);
}

/** A refusal with no key to charge it to (bad key, unknown chain, malformed input): counted in the metrics only. */
export function rejected(ctx: TGatewayContext, e: TGatewayError, count = 1): TGatewayError {
  ctx.metrics.refused(e.code, count);
  return e;
}

/** Whether the account has anything left (WebSocket upgrade); raises the paused notice (throttled) when not. */
export function checkBalance(ctx: TGatewayContext, a: TAdmitted): TGatewayError | undefined {
  if (ctx.balance.hasRu(a.key.accountId)) return undefined;
  ctx.notifyPaused(a.key.accountId, a.key.keyId, a.chain.id);
  return refusedAtDoor(ctx, a.key, a.chain.id, 'ws', ERR.noRu());
}

export type TResolvedGroup = { group: UpstreamGroup; archive: boolean; name: string };

/** The group a route maps to on this chain, with fallbacks: no archive or MEV group → full nodes. */
export function resolveGroup(ups: TChainUpstreams, route: TRoute): TResolvedGroup | undefined {
  switch (route.group) {
    case 'archive':
      return ups.archive.isEmpty
        ? { group: ups.full, archive: false, name: 'full' }
        : { group: ups.archive, archive: true, name: 'archive' };
    case 'mev':
      return ups.mev.isEmpty
        ? { group: ups.full, archive: false, name: 'full' }
        : { group: ups.mev, archive: false, name: 'mev' };
    case 'bundler': {
      const g = ups.bundler[route.provider];
      return g.isEmpty
        ? undefined
        : { group: g, archive: false, name: `bundler:${route.provider}` };
    }
    default:
      return { group: ups.full, archive: false, name: 'full' };
  }
}

const RESULT_KEY = Buffer.from('"result"');
const ERROR_KEY = Buffer.from('"error"');
/**
 * Whether a JSON-RPC response body is an error, without parsing it: the first top-level key of a success
 * is "result", and a nested "error" inside a result can only appear after it. Node implementations put
 * id/jsonrpc before result/error; a body with neither counts as an error.
 */
export function isErrorBody(body: Buffer): boolean {
  const r = body.indexOf(RESULT_KEY);
  if (r === -1) return true;
  // Only the bytes before "result" are searched (backwards from it): a big answer is not scanned to its end.
  return r >= ERROR_KEY.length && body.lastIndexOf(ERROR_KEY, r - ERROR_KEY.length) !== -1;
}
