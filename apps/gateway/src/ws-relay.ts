/**
 * WebSocket on /v1/{chain}/{apiKey}: each client message goes through the call pipeline and up the chain's shared
 * node socket (ws-upstream.ts); every answer and every notification is metered. Caps: sockets per key and
 * subscriptions per socket, by tier. Close codes (docs/decisions/gateway-design.md): 1008 key gone or paused,
 * 1011 upstream lost, 4402 the account ran out of RU (its subscriptions end first with a JSON-RPC error).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RawData } from 'ws';
import { WebSocket, WebSocketServer } from 'ws';
import type { TAdmitted, TGatewayContext } from './context';
import {
  admit,
  checkBalance,
  clientIp,
  logRefusal,
  parsePath,
  rejected,
  rejectedFor,
} from './context';
import type { TGatewayError } from './errors';
import { ERR, errorObject } from './errors';
import type { TPreparedCall, TTicket } from './pipeline';
import {
  admitCalls,
  chargeNotification,
  idOf,
  noteResult,
  prepareCall,
  settleCall,
  upstreamCall,
} from './pipeline';
import { errorCodeOfObject } from './request-log';
import { maxBatchOf, socketsPerKeyOf, subscriptionsPerSocketOf } from './tiers';
import type { TSubListener, TUpItem } from './ws-upstream';
import { WsUpstream } from './ws-upstream';

export const WS_CLOSE = { keyInvalid: 1008, upstream: 1011, noRu: 4402 } as const;

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/**
 * How long a refused upgrade's socket may wait for its answer to be flushed before it is destroyed unflushed: the
 * answer is a few hundred bytes, which a client reading anything takes at once, so only one whose window is full
 * (it reads nothing) waits this long.
 */
export const REFUSED_UPGRADE_LINGER_MS = 1000;

/**
 * Answers an upgrade with an HTTP error and closes the connection for good. The server's sockets are half-open
 * ones (allowHalfOpen), so `end()` alone sends the answer and a FIN and leaves the socket open until the client
 * ends its side, which one that never does holds (a socket, a file descriptor) for ever. So the socket is
 * destroyed once the answer is flushed ('finish', as ws does), or after REFUSED_UPGRADE_LINGER_MS if it never is.
 * Nothing more is read from it meanwhile: node:http hands it over not flowing and unread, and `pause()` stops the
 * reads of a raw-front socket (its `onread` reads) at once; a plain one reads at most its stream's high-water mark.
 */
export function refuseUpgrade(socket: Duplex, e: TGatewayError): void {
  if (socket.destroyed) return;
  const body = errorObject(null, e);
  const retry = e.retryAfterSec !== undefined ? `Retry-After: ${e.retryAfterSec}\r\n` : '';
  const close = () => {
    clearTimeout(linger);
    socket.destroy();
  };
  const linger = setTimeout(close, REFUSED_UPGRADE_LINGER_MS);
  linger.unref();
  socket.pause();
  socket.once('finish', close);
  socket.once('close', close);
  // node:http drops its error listener at the hand-over: a reset client must not be an uncaught error.
  socket.on('error', close);
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_TEXT[e.status] ?? 'Error'}\r\nContent-Type: application/json\r\n` +
      `${retry}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function createUpgradeHandler(ctx: TGatewayContext) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: ctx.maxBodyBytes });
  const sessions = new Map<WebSocket, Session>();
  const upstreams = new Map<string, WsUpstream>();
  const socketsByKey = new Map<string, number>();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const target = parsePath(req.url ?? '');
    if (!target) return refuseUpgrade(socket, rejected(ctx, ERR.notFound()));
    const admitted = admit(ctx, target, req.headers.origin, clientIp(ctx, req), 'ws');
    if ('status' in admitted) return refuseUpgrade(socket, admitted);
    // A dedicated node is paid by its term: no RU balance needed.
    const noRu = admitted.dedicated ? undefined : checkBalance(ctx, admitted);
    if (noRu) return refuseUpgrade(socket, noRu);
    if (admitted.ups.ws.length === 0)
      return refuseUpgrade(
        socket,
        rejectedFor(ctx, admitted, 'ws', ERR.chainUnavailable(target.chain)),
      );
    const keyId = admitted.key.keyId;
    const open = socketsByKey.get(keyId) ?? 0;
    const cap = socketsPerKeyOf(admitted.key.tier);
    if (open >= cap)
      return refuseUpgrade(
        socket,
        rejectedFor(
          ctx,
          admitted,
          'ws',
          ERR.rateLimited(`too many open WebSockets for this key (limit ${cap})`, 1),
        ),
      );
    socketsByKey.set(keyId, open + 1);
    let up = upstreams.get(admitted.chain.id);
    if (!up) upstreams.set(admitted.chain.id, (up = new WsUpstream(admitted.ups.ws)));
    const shared = up;
    let counted = true;
    const uncount = () => {
      if (!counted) return;
      counted = false;
      const n = (socketsByKey.get(keyId) ?? 1) - 1;
      if (n > 0) socketsByKey.set(keyId, n);
      else socketsByKey.delete(keyId);
    };
    // The socket may die before the handshake ends: the slot must not leak then either.
    socket.once('close', uncount);
    wss.handleUpgrade(req, socket, head, (client) => {
      const session = new Session(ctx, client, admitted, target.apiKey, shared);
      sessions.set(client, session);
      client.on('close', () => {
        sessions.delete(client);
        uncount();
      });
      session.start();
    });
  };

  const close = async (): Promise<void> => {
    for (const s of sessions.keys()) s.terminate();
    for (const u of upstreams.values()) u.close();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
  /** Open sockets of a key in this process (tests). */
  const openSockets = (keyId: string): number => socketsByKey.get(keyId) ?? 0;
  /** Open client sockets, their subscriptions and the shared ones upstream (metrics). */
  const stats = () => {
    let client = 0;
    let upstream = 0;
    for (const s of sessions.values()) client += s.subscriptionCount;
    for (const u of upstreams.values()) upstream += u.upstreamSubscriptions;
    return { sockets: sessions.size, subscriptions: { client, upstream } };
  };
  return { onUpgrade, close, openSockets, upstreams, stats };
}

type TClientSub = { id: string; params: unknown; listener: TSubListener };

class Session {
  private readonly tickets = new Set<TTicket>();
  private readonly subs = new Map<string, TClientSub>();
  private closed = false;

  constructor(
    private readonly ctx: TGatewayContext,
    private readonly client: WebSocket,
    private a: TAdmitted,
    private readonly apiKey: string,
    private readonly up: WsUpstream,
  ) {}

  get subscriptionCount(): number {
    return this.subs.size;
  }

  start(): void {
    this.client.on('message', (data: RawData) => {
      try {
        this.onMessage(data.toString());
      } catch {
        this.finish(WS_CLOSE.upstream, 'internal error');
      }
    });
    this.client.on('close', () => this.finish(1000, 'client closed'));
    this.client.on('error', () => this.finish(WS_CLOSE.upstream, 'client error'));
  }

  /** Ends the session: every call still out is settled unanswered, every subscription dropped. Idempotent. */
  private finish(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.tickets) settleCall(this.ctx, t, { kind: 'cancelled' });
    this.tickets.clear();
    for (const s of this.subs.values()) this.up.unsubscribe(s.params, s.listener);
    this.subs.clear();
    if (this.client.readyState === WebSocket.OPEN) this.client.close(code, reason);
  }

  private sendText(text: string): void {
    if (this.closed || this.client.readyState !== WebSocket.OPEN) return;
    this.ctx.usage.commitJournal(); // the journal lines of the calls answered here go first
    this.client.send(text);
  }

  /** The key may have been deleted, paused or changed since the socket opened: checked on every message. */
  private stillValid(): boolean {
    const current = this.ctx.keys.get(this.apiKey);
    const key = this.a.key;
    if (!current || current.deleted || current.paused || current.keyId !== key.keyId) {
      this.finish(
        WS_CLOSE.keyInvalid,
        current?.paused ? 'API key paused' : 'API key no longer valid',
      );
      return false;
    }
    if (current !== key) this.a = { ...this.a, key: current };
    return true;
  }

  private onMessage(text: string): void {
    if (this.closed || !this.stillValid()) return;
    const started = performance.now();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      const e = this.refuse(ERR.parse('message is not valid JSON'), '', started);
      return this.sendText(errorObject(null, e));
    }
    if (!Array.isArray(parsed)) return this.onSingle(parsed, started);
    if (parsed.length === 0)
      return this.sendText(errorObject(null, this.refuse(ERR.emptyBatch(), '', started)));
    const max = this.a.dedicated
      ? this.ctx.maxBatch
      : maxBatchOf(this.a.key.tier, this.ctx.maxBatch);
    if (parsed.length > max)
      return this.sendText(
        errorObject(null, this.refuse(ERR.batchTooLarge(parsed.length, max), '', started)),
      );
    this.onBatch(parsed, started);
  }

  /** A refused call (or message) of this key that is not a refusal of the key: metrics and request log. */
  private refuse(e: TGatewayError, method: string, started: number): TGatewayError {
    return rejectedFor(this.ctx, this.a, 'ws', e, method, started);
  }

  private onSingle(raw: unknown, started: number): void {
    const call = prepareCall(this.ctx, this.a, raw, 'ws');
    if ('status' in call) return this.sendText(errorObject(idOf(raw), call));
    if (call.method === 'eth_subscribe' && this.subs.size >= this.subsCap()) {
      call.stats.refused += 1;
      const e = this.refuse(this.subsRefusal(), call.method, started);
      return this.sendText(errorObject(call.id, e));
    }
    const tickets = admitCalls(this.ctx, this.a, [call], started);
    if (!Array.isArray(tickets)) return this.sendText(errorObject(call.id, tickets));
    const ticket = tickets[0] as TTicket;
    this.tickets.add(ticket);
    if (call.method === 'eth_subscribe') return this.subscribe(ticket);
    if (call.method === 'eth_unsubscribe') return this.unsubscribe(ticket);
    this.up.send([upstreamCall(call, undefined)], (items) => {
      const text = this.answer(ticket, items.get(0));
      if (call.hasId) this.sendText(text);
    });
  }

  /** All or nothing over WebSocket: one refused call refuses the batch, each call answered in place. */
  private onBatch(raws: unknown[], started: number): void {
    const prepared: TPreparedCall[] = [];
    const refusals: (string | undefined)[] = raws.map((raw) => {
      const c = prepareCall(this.ctx, this.a, raw, 'ws');
      if ('status' in c) return errorObject(idOf(raw), c);
      if (c.method === 'eth_subscribe' || c.method === 'eth_unsubscribe') {
        c.stats.refused += 1;
        const e = ERR.invalidRequest(`send ${c.method} alone, not in a batch`);
        return errorObject(c.id, this.refuse(e, c.method, started));
      }
      prepared.push(c);
      return undefined;
    });
    if (refusals.some((r) => r !== undefined)) {
      const why = ERR.invalidRequest('batch refused: another call in it was refused');
      for (const c of prepared) {
        c.stats.refused += 1;
        logRefusal(this.ctx, this.a.key, this.a.chain.id, c.method, 'ws', why, 0);
      }
      rejected(this.ctx, why, prepared.length);
      return this.sendText(
        `[${refusals.map((r, i) => r ?? errorObject(idOf(raws[i]), why)).join(',')}]`,
      );
    }
    const tickets = admitCalls(this.ctx, this.a, prepared, started);
    if (!Array.isArray(tickets)) return this.sendText(errorObject(null, tickets));
    for (const t of tickets) this.tickets.add(t);
    this.up.send(
      tickets.map((t) => upstreamCall(t.call, undefined)),
      (items) => {
        const parts: string[] = [];
        tickets.forEach((t, i) => {
          const text = this.answer(t, items.get(i));
          if (t.call.hasId) parts.push(text);
        });
        if (parts.length > 0) this.sendText(`[${parts.join(',')}]`);
      },
    );
  }

  /** Meters one answer (with the caller's id put back) and returns its text. */
  private answer(t: TTicket, up: TUpItem | undefined): string {
    this.tickets.delete(t);
    if (!up) {
      settleCall(this.ctx, t, { kind: 'failed' });
      return errorObject(t.call.id, ERR.upstreamUnavailable());
    }
    const o = up.item;
    const isError = o.error !== undefined || !('result' in o);
    const text = isError
      ? JSON.stringify({ jsonrpc: '2.0', id: t.call.id ?? null, error: o.error })
      : JSON.stringify({ jsonrpc: '2.0', id: t.call.id ?? null, result: o.result });
    settleCall(this.ctx, t, {
      kind: 'answered',
      bytes: Buffer.byteLength(text),
      isError,
      errorCode: isError ? errorCodeOfObject(o.error) : null,
    });
    if (!isError) noteResult(this.ctx, t, o.result);
    return text;
  }

  private subsCap(): number {
    return subscriptionsPerSocketOf(this.a.key.tier);
  }

  private subsRefusal(): TGatewayError {
    return ERR.rateLimited(`too many subscriptions on this socket (limit ${this.subsCap()})`, 1);
  }

  /** eth_subscribe: shared upstream; the client gets an id of its own, so its unsubscribe touches only its own. */
  private subscribe(t: TTicket): void {
    const params = t.call.params;
    const sub: TClientSub = {
      id: `0x${randomBytes(16).toString('hex')}`,
      params,
      listener: {
        onNotification: (resultJson) => this.notify(sub, resultJson),
        onEnd: (reason) => {
          this.subs.delete(sub.id);
          this.finish(WS_CLOSE.upstream, reason);
        },
      },
    };
    this.subs.set(sub.id, sub);
    this.up.subscribe(params, sub.listener, (err) => {
      if (this.closed) return;
      this.tickets.delete(t);
      if (err) {
        this.subs.delete(sub.id);
        this.up.unsubscribe(params, sub.listener);
        const text = JSON.stringify({ jsonrpc: '2.0', id: t.call.id ?? null, error: err });
        settleCall(this.ctx, t, {
          kind: 'answered',
          bytes: Buffer.byteLength(text),
          isError: true,
          errorCode: errorCodeOfObject(err),
        });
        return this.sendText(text);
      }
      const text = JSON.stringify({ jsonrpc: '2.0', id: t.call.id ?? null, result: sub.id });
      settleCall(this.ctx, t, { kind: 'answered', bytes: Buffer.byteLength(text), isError: false });
      this.sendText(text);
    });
  }

  /** eth_unsubscribe of one of this socket's own subscriptions, answered here. */
  private unsubscribe(t: TTicket): void {
    this.tickets.delete(t);
    const p = t.call.params;
    const id = Array.isArray(p) ? p[0] : undefined;
    const sub = typeof id === 'string' ? this.subs.get(id) : undefined;
    if (sub) {
      this.subs.delete(sub.id);
      this.up.unsubscribe(sub.params, sub.listener);
    }
    const text = JSON.stringify({ jsonrpc: '2.0', id: t.call.id ?? null, result: !!sub });
    settleCall(this.ctx, t, { kind: 'answered', bytes: Buffer.byteLength(text), isError: false });
    this.sendText(text);
  }

  /** A notification for one of this socket's subscriptions: charged first, or every subscription ends. */
  private notify(sub: TClientSub, resultJson: string): void {
    if (this.closed || !this.stillValid()) return;
    const text = `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":${JSON.stringify(sub.id)},"result":${resultJson}}}`;
    if (!chargeNotification(this.ctx, this.a, Buffer.byteLength(text), performance.now())) {
      const ids = [...this.subs.keys()];
      const e = ERR.noRu();
      this.sendText(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: e.code, message: `${e.message}; subscriptions ended`, data: { ids } },
        }),
      );
      this.finish(WS_CLOSE.noRu, 'account out of RU');
      return;
    }
    this.sendText(text);
  }
}
