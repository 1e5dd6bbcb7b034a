/**
 * The one call pipeline: every JSON-RPC call, whether it came alone over HTTP, in a batch or over a WebSocket,
 * is prepared (shape, catalogue, allowlists, route), admitted (RU hold, then rate limits) and settled exactly
 * once (usage recorded, RUs charged, hold and limiter slot released). Transports keep only bytes and framing.
 */
import type { TAdmitted, TGatewayContext, TResolvedGroup } from './context';
import { logCall, logRefusal, refused, rejectedFor, resolveGroup } from './context';
import type { TGatewayError } from './errors';
import { ERR } from './errors';
import { FILTER_METHODS } from './filter-owners';
import { computeRu, estimateRu } from './metering';
import type { TCallStats } from './metrics';
import { chooseRoute, ERC4337_METHODS } from './routing';
import type { TRequestOutcome, TRequestTransport } from './types';

const UPSTREAM_UNAVAILABLE_CODE = ERR.upstreamUnavailable().code;

/** A call that passed every check that needs no state: safe to hold RUs for and forward. */
export type TPreparedCall = {
  /** The caller's id; `hasId` false for a notification (no id member). */
  id: unknown;
  hasId: boolean;
  method: string;
  params: unknown;
  route: TResolvedGroup;
  estimate: number;
  /** this call's (chain, method) counters in the metrics, resolved once */
  stats: TCallStats;
  /** how it came (for the request log) */
  transport: TRequestTransport;
};

/** One admission: a single call or a whole batch, holding one limiter slot and one RU hold. */
type TAdmission = {
  a: TAdmitted;
  estimate: number;
  charged: number;
  open: number;
};

/** One admitted call; settle it exactly once, whatever happens to it. */
export type TTicket = {
  call: TPreparedCall;
  started: number;
  settled: boolean;
  admission: TAdmission;
};

/**
 * How a forwarded call ended: answered (billed by its bytes), failed upstream (recorded, free), or cancelled.
 * `errorCode`: an error answer's JSON-RPC code when known (for the request log).
 */
export type TOutcome =
  | { kind: 'answered'; bytes: number; isError: boolean; errorCode?: number | null }
  | { kind: 'failed' }
  | { kind: 'cancelled' };

type TRawCall = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };

export function isCallShape(c: unknown): c is TRawCall & { method: string } {
  return (
    !!c && typeof c === 'object' && !Array.isArray(c) && typeof (c as TRawCall).method === 'string'
  );
}

/** The id to answer a refused call with (null when the call has none or is not an object). */
export function idOf(c: unknown): unknown {
  return c && typeof c === 'object' && !Array.isArray(c) ? (c as TRawCall).id : undefined;
}

/**
 * Checks a call against the key and the chain without touching any state. Over WebSocket every call goes to the
 * chain's full-node socket, so routes other than full nodes (bundlers) are refused there.
 */
export function prepareCall(
  ctx: TGatewayContext,
  a: TAdmitted,
  raw: unknown,
  transport: 'http' | 'ws',
): TPreparedCall | TGatewayError {
  if (!isCallShape(raw))
    return rejectedFor(ctx, a, transport, ERR.invalidRequest('missing "method"'));
  const method = raw.method;
  const stats = ctx.metrics.callStats(a.chain.id, a.dedicated, method);
  // The catalogue, then the key's method and contract allowlists (method-policy.ts).
  const denied = ctx.policy(method, raw.params, a.key);
  if (denied) return refuseCall(ctx, a, stats, denied, method, transport);
  let route: TResolvedGroup | undefined;
  if (transport === 'ws') {
    if (ERC4337_METHODS.has(method))
      return refuseCall(
        ctx,
        a,
        stats,
        ERR.unsupportedMethod(method, a.chain.id),
        method,
        transport,
      );
    route = resolveGroup(a.ups, { group: 'full' });
  } else {
    route = resolveGroup(a.ups, chooseRoute(a.key, method, raw.params, a.ups.head));
  }
  if (!route)
    return refuseCall(ctx, a, stats, ERR.unsupportedMethod(method, a.chain.id), method, transport);
  return {
    id: raw.id,
    hasId: 'id' in raw,
    method,
    params: raw.params,
    route,
    estimate: estimateRu(ctx.ruTable, method),
    stats,
    transport,
  };
}

/**
 * Admits calls as one unit: the account must have the RUs (see RuBudget.reserve), then the key's limits must
 * allow them. Nothing is held when either refuses.
 */
export function admitCalls(
  ctx: TGatewayContext,
  a: TAdmitted,
  calls: TPreparedCall[],
  started: number,
): TTicket[] | TGatewayError {
  let estimate = 0;
  for (const c of calls) estimate += c.estimate;
  const last = calls[calls.length - 1];
  if (!last) return [];
  if (a.dedicated) {
    // A dedicated node is paid by its term: no RUs held, and the shared tier's limits are not its.
    const own: TAdmission = { a, estimate: 0, charged: 0, open: calls.length };
    return calls.map((call) => ({ call, started, settled: false, admission: own }));
  }
  const accountId = a.key.accountId;
  if (!ctx.balance.reserve(accountId, estimate, last.estimate)) {
    ctx.notifyPaused(accountId, a.key.keyId, a.chain.id);
    return refusedAll(ctx, a, calls, ERR.noRu(), started);
  }
  const verdict = ctx.limiter.acquire(a.key.keyId, a.key.tier, calls.length, estimate);
  if (!verdict.ok) {
    ctx.balance.settle(accountId, estimate, 0);
    const e = ERR.rateLimited(verdict.message, verdict.retryAfterSec);
    return refusedAll(ctx, a, calls, e, started);
  }
  const admission: TAdmission = { a, estimate, charged: 0, open: calls.length };
  return calls.map((call) => ({ call, started, settled: false, admission }));
}

/** A call refused once its method is known: counted for its (chain, method) and for its key. */
function refuseCall(
  ctx: TGatewayContext,
  a: TAdmitted,
  stats: TCallStats,
  e: TGatewayError,
  method: string,
  transport: TRequestTransport,
): TGatewayError {
  stats.refused += 1;
  logRefusal(ctx, a.key, a.chain.id, method, transport, e, 0);
  return refused(ctx, a.key, a.chain.id, e);
}

/** Refuses prepared calls as one unit (a batch over a limit): each counted as refused and logged. */
function refusedAll(
  ctx: TGatewayContext,
  a: TAdmitted,
  calls: TPreparedCall[],
  e: TGatewayError,
  started: number,
): TGatewayError {
  const took = ctx.requestLog ? performance.now() - started : 0;
  for (const c of calls) {
    c.stats.refused += 1;
    logRefusal(ctx, a.key, a.chain.id, c.method, c.transport, e, took);
  }
  return refused(ctx, a.key, a.chain.id, e, calls.length);
}

/** Ends a call: records and charges it (once, however often it is called) and frees its hold when it is the last. */
export function settleCall(ctx: TGatewayContext, t: TTicket, outcome: TOutcome): number {
  if (t.settled) return 0;
  t.settled = true;
  const ad = t.admission;
  const { key, chain } = ad.a;
  let ru = 0;
  const stats = t.call.stats;
  const at = Date.now();
  const took = performance.now() - t.started;
  if (outcome.kind === 'cancelled') stats.cancelled += 1;
  else if (outcome.kind === 'failed') stats.unavailable += 1;
  else if (outcome.isError) stats.error += 1;
  else stats.ok += 1;
  if (outcome.kind !== 'cancelled') {
    const isError = outcome.kind === 'failed' || outcome.isError;
    if (outcome.kind === 'answered' && !ad.a.dedicated)
      ru = computeRu(
        {
          method: t.call.method,
          responseBytes: outcome.bytes,
          archive: t.call.route.archive,
          multiplier: chain.ruMultiplier,
          outcome: isError ? 'upstream_error' : 'ok',
        },
        ctx.ruTable,
      );
    ctx.usage.record(key.accountId, key.keyId, chain.id, t.call.method, at, ru, isError, took);
  }
  if (ctx.requestLog) logSettled(ctx, t, outcome, ru, took, at);
  ad.charged += ru;
  ad.open -= 1;
  if (ad.open === 0 && !ad.a.dedicated) {
    ctx.balance.settle(key.accountId, ad.estimate, ad.charged);
    ctx.limiter.release(key.keyId, ad.estimate, ad.charged);
  }
  return ru;
}

/** The request-log entry of a settled call: its outcome, the answer's error code, latency and RUs. */
function logSettled(
  ctx: TGatewayContext,
  t: TTicket,
  outcome: TOutcome,
  ru: number,
  took: number,
  at: number,
): void {
  const { key, chain } = t.admission.a;
  let logged: TRequestOutcome = 'cancelled';
  let code: number | null = null;
  if (outcome.kind === 'answered') {
    logged = outcome.isError ? 'rpc_error' : 'ok';
    if (outcome.isError) code = outcome.errorCode ?? null;
  } else if (outcome.kind === 'failed') {
    logged = 'upstream_failed';
    code = UPSTREAM_UNAVAILABLE_CODE;
  }
  logCall(ctx, key, chain.id, t.call.method, t.call.transport, logged, code, took, ru, at);
}

/**
 * Charges one subscription notification pushed by the node. Refused (false, nothing recorded) when the account has
 * nothing left: the caller then ends the subscription.
 */
export function chargeNotification(
  ctx: TGatewayContext,
  a: TAdmitted,
  bytes: number,
  started: number,
): boolean {
  const method = 'eth_subscription';
  if (a.dedicated) {
    // Counted, not charged: the node is paid by its term.
    const at = Date.now();
    const took = performance.now() - started;
    ctx.usage.record(a.key.accountId, a.key.keyId, a.chain.id, method, at, 0, false, took);
    logCall(ctx, a.key, a.chain.id, method, 'ws', 'ok', null, took, 0, at);
    return true;
  }
  const estimate = estimateRu(ctx.ruTable, method);
  if (!ctx.balance.reserve(a.key.accountId, estimate, estimate)) {
    ctx.notifyPaused(a.key.accountId, a.key.keyId, a.chain.id);
    logRefusal(ctx, a.key, a.chain.id, method, 'ws', ERR.noRu(), 0);
    return false;
  }
  const ru = computeRu(
    {
      method,
      responseBytes: bytes,
      archive: false,
      multiplier: a.chain.ruMultiplier,
      outcome: 'ok',
    },
    ctx.ruTable,
  );
  const at = Date.now();
  const took = performance.now() - started;
  ctx.usage.record(a.key.accountId, a.key.keyId, a.chain.id, method, at, ru, false, took);
  logCall(ctx, a.key, a.chain.id, method, 'ws', 'ok', null, took, ru, at);
  ctx.balance.settle(a.key.accountId, estimate, ru);
  return true;
}

/** A new filter's id is remembered for its key (contract allowlists let a key poll only its own filters). */
export function noteResult(ctx: TGatewayContext, t: TTicket, result: unknown): void {
  if (typeof result === 'string' && FILTER_METHODS.has(t.call.method))
    ctx.filters.add(t.admission.a.key.keyId, result);
}

/** What goes upstream: only the JSON-RPC members, never the caller's other keys. */
export function upstreamCall(c: TPreparedCall, id: unknown): Record<string, unknown> {
  return c.params === undefined
    ? { jsonrpc: '2.0', id, method: c.method }
    : { jsonrpc: '2.0', id, method: c.method, params: c.params };
}
