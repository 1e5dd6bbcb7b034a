/** WebSocket on /v1/{chain}/{apiKey}: relays to the chain's upstream ws, metering every response and notification. */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RawData } from 'ws';
import { WebSocket, WebSocketServer } from 'ws';
import type { TAdmitted, TGatewayContext } from './context';
import { admit, checkBalance, checkCall, parsePath } from './context';
import type { TGatewayError } from './errors';
import { ERR, errorObject } from './errors';
import { computeRu, estimateRu } from './metering';
import { ERC4337_METHODS } from './routing';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  503: 'Service Unavailable',
};

function refuseUpgrade(socket: Duplex, e: TGatewayError): void {
  const body = errorObject(null, e);
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_TEXT[e.status] ?? 'Error'}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

type TPending = { method: string; estimate: number; started: number };
type TCall = { id?: unknown; method?: unknown; params?: unknown };

export function createUpgradeHandler(ctx: TGatewayContext) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: ctx.maxBodyBytes });
  const sessions = new Set<WebSocket>();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const target = parsePath(req.url ?? '');
    if (!target) return refuseUpgrade(socket, ERR.notFound());
    const ip = req.socket.remoteAddress ?? '';
    const admitted = admit(ctx, target, req.headers.origin, ip);
    if ('status' in admitted) return refuseUpgrade(socket, admitted);
    const noRu = checkBalance(ctx, admitted);
    if (noRu) return refuseUpgrade(socket, noRu);
    if (admitted.ups.ws.length === 0)
      return refuseUpgrade(socket, ERR.chainUnavailable(target.chain));
    wss.handleUpgrade(req, socket, head, (client) => {
      sessions.add(client);
      client.on('close', () => sessions.delete(client));
      relay(ctx, client, admitted, target.apiKey);
    });
  };

  const close = async (): Promise<void> => {
    for (const s of sessions) s.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
  return { onUpgrade, close };
}

function relay(ctx: TGatewayContext, client: WebSocket, a: TAdmitted, apiKey: string): void {
  const { chain } = a;
  let key = a.key;
  const pending = new Map<string, TPending>();
  const queue: string[] = [];
  const urls = a.ups.ws;
  let upstream: WebSocket | undefined;
  let attempt = 0;
  let closed = false;

  const finish = (code: number, reason: string) => {
    if (closed) return;
    closed = true;
    for (const p of pending.values()) ctx.limiter.release(key.keyId, p.estimate, 0);
    pending.clear();
    upstream?.terminate();
    if (client.readyState === WebSocket.OPEN) client.close(code, reason);
  };

  /** The key may have been deleted, paused or changed since the socket opened: look it up on every message. */
  const stillValid = (): boolean => {
    const current = ctx.keys.get(apiKey);
    if (!current || current.deleted || current.paused || current.keyId !== key.keyId) {
      finish(1008, current?.paused ? 'API key paused' : 'API key no longer valid');
      return false;
    }
    key = current;
    return true;
  };

  const meter = (method: string, bytes: number, isError: boolean, started: number) => {
    const ru = computeRu(
      {
        method,
        responseBytes: bytes,
        archive: false,
        multiplier: chain.ruMultiplier,
        outcome: isError ? 'upstream_error' : 'ok',
      },
      ctx.ruTable,
    );
    ctx.usage.record(
      key.accountId,
      key.keyId,
      chain.id,
      method,
      Date.now(),
      ru,
      isError,
      performance.now() - started,
    );
    if (ru > 0) ctx.balance.consume(key.accountId, ru);
    return ru;
  };

  const onUpstreamItem = (item: unknown, bytes: number) => {
    const o = item as { id?: unknown; method?: unknown; error?: unknown; result?: unknown };
    if (!o || typeof o !== 'object') return;
    if (o.method === 'eth_subscription') {
      meter('eth_subscription', bytes, false, performance.now());
      return;
    }
    const id = JSON.stringify(o.id ?? null);
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    const isError = o.error !== undefined || !('result' in o);
    const ru = meter(p.method, bytes, isError, p.started);
    ctx.limiter.release(key.keyId, p.estimate, ru);
  };

  const connect = () => {
    const url = urls[attempt % urls.length] as string;
    const up = new WebSocket(url, { perMessageDeflate: false });
    upstream = up;
    up.on('open', () => {
      for (const m of queue) up.send(m);
      queue.length = 0;
    });
    up.on('message', (data: RawData) => {
      if (!stillValid()) return;
      const text = data.toString();
      try {
        const parsed: unknown = JSON.parse(text);
        if (Array.isArray(parsed))
          for (const it of parsed) onUpstreamItem(it, Buffer.byteLength(JSON.stringify(it)));
        else onUpstreamItem(parsed, Buffer.byteLength(text));
      } catch {
        // Not JSON: relay it unmetered; the client sees what the node said.
      }
      if (client.readyState === WebSocket.OPEN) client.send(text);
    });
    up.on('error', () => {
      // Before the first message is answered a failed upstream is retried on the next URL; later, the socket closes.
      if (
        up.readyState !== WebSocket.OPEN &&
        attempt + 1 < urls.length &&
        pending.size === 0 &&
        !closed
      ) {
        attempt += 1;
        connect();
      } else {
        finish(1011, 'upstream connection failed');
      }
    });
    up.on('close', () => {
      if (upstream === up) finish(1011, 'upstream closed');
    });
  };

  const forward = (text: string) => {
    if (upstream?.readyState === WebSocket.OPEN) upstream.send(text);
    else queue.push(text);
  };

  /** Checks one call; returns an error text to send back, or undefined when it may go upstream. */
  const admitCall = (c: TCall, started: number): string | undefined => {
    if (!c || typeof c !== 'object' || typeof c.method !== 'string') {
      return errorObject(c?.id, ERR.invalidRequest('missing "method"'));
    }
    const denied = checkCall(key, c.method, c.params);
    if (denied) return errorObject(c.id, denied);
    // Over WebSocket every call goes to the full group's socket; bundler methods need their own provider.
    if (ERC4337_METHODS.has(c.method))
      return errorObject(c.id, ERR.unsupportedMethod(c.method, chain.id));
    const noRu = checkBalance(ctx, { ...a, key });
    if (noRu) return errorObject(c.id, noRu);
    const estimate = estimateRu(ctx.ruTable, c.method);
    const verdict = ctx.limiter.acquire(key.keyId, key.tier, 1, estimate);
    if (!verdict.ok)
      return errorObject(c.id, ERR.rateLimited(verdict.message, verdict.retryAfterSec));
    if (c.id === undefined) ctx.limiter.release(key.keyId, estimate, 0);
    else pending.set(JSON.stringify(c.id), { method: c.method, estimate, started });
    return undefined;
  };

  client.on('message', (data: RawData) => {
    if (!stillValid()) return;
    const started = performance.now();
    const text = data.toString();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      client.send(errorObject(null, ERR.parse('message is not valid JSON')));
      return;
    }
    if (Array.isArray(parsed)) {
      if (parsed.length === 0) return client.send(errorObject(null, ERR.emptyBatch()));
      if (parsed.length > ctx.maxBatch)
        return client.send(errorObject(null, ERR.batchTooLarge(parsed.length, ctx.maxBatch)));
      const refusals = parsed.map((c) => admitCall(c as TCall, started));
      if (refusals.some((r) => r !== undefined)) {
        // All or nothing over WebSocket: release what was admitted and answer every call of the batch.
        for (const c of parsed as TCall[]) {
          const id = JSON.stringify(c?.id ?? null);
          const p = pending.get(id);
          if (p) {
            pending.delete(id);
            ctx.limiter.release(key.keyId, p.estimate, 0);
          }
        }
        client.send(
          `[${refusals
            .map(
              (r, i) =>
                r ??
                errorObject(
                  (parsed as TCall[])[i]?.id,
                  ERR.invalidRequest('batch refused: another call in it was refused'),
                ),
            )
            .join(',')}]`,
        );
        return;
      }
      forward(text);
      return;
    }
    const refusal = admitCall(parsed as TCall, started);
    if (refusal) client.send(refusal);
    else forward(text);
  });
  client.on('close', () => finish(1000, 'client closed'));
  client.on('error', () => finish(1011, 'client error'));
  connect();
}
