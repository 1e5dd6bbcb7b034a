/** The HTTP hot path: POST /v1/{chain}/{apiKey}, single and batch JSON-RPC, gzip, CORS. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzip, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { TAdmitted, TGatewayContext } from './context';
import type { TPathTarget } from './context';
import { admit, clientIp, isErrorBody, parsePath, rejected, rejectedFor } from './context';
import type { TGatewayError } from './errors';
import { ERR, errorObject } from './errors';
import type { TPreparedCall, TTicket } from './pipeline';
import {
  admitCalls,
  idOf,
  isCallShape,
  noteResult,
  prepareCall,
  settleCall,
  upstreamCall,
} from './pipeline';
import { FILTER_METHODS } from './filter-owners';
import { isQuickRead } from './metering';
import { isScrapeAllowed } from './metrics';
import { errorCodeOfBody, errorCodeOfObject } from './request-log';
import { maxBatchOf } from './tiers';

const gunzipAsync = promisify(gunzip);
const gzipAsync = promisify(gzip);

/** Responses at least this big are gzipped for clients that accept it. */
const GZIP_MIN_BYTES = 1024;

/** The only request headers a browser page may send cross-origin (besides the CORS-safelisted ones). */
export const CORS_ALLOWED_HEADERS = 'content-type, content-encoding';

const NO_CORS: Record<string, string> = Object.freeze({}) as Record<string, string>;

function corsHeaders(origin: string | undefined): Record<string, string> {
  return origin === undefined ? NO_CORS : { 'access-control-allow-origin': origin, vary: 'Origin' };
}

/**
 * Where an answer goes: node:http's response, or a connection of the raw front (raw-front.ts). One answer per
 * request; `sent` says whether it was written.
 */
export type TOut = {
  /** The request's Accept-Encoding (big answers are gzipped for clients that accept it). */
  readonly acceptEncoding: string | undefined;
  reply(status: number, headers: Record<string, string | number>, body?: Buffer | string): void;
  readonly sent: boolean;
  /** Cuts the connection (an answer that cannot be finished). */
  destroy(): void;
};

/** node:http's request and response as a TOut (everything the raw front hands over). */
function nodeOut(ctx: TGatewayContext, req: IncomingMessage, res: ServerResponse): TOut {
  const accept = req.headers['accept-encoding'];
  return {
    acceptEncoding: typeof accept === 'string' ? accept : undefined,
    reply: (status, headers, body) => {
      ctx.usage.commitJournal(); // the journal lines of the calls answered here go first
      res.writeHead(status, headers).end(body);
    },
    get sent() {
      return res.headersSent;
    },
    destroy: () => res.destroy(),
  };
}

function sendError(
  out: TOut,
  e: TGatewayError,
  id: unknown,
  extra: Record<string, string> = {},
): void {
  const body = errorObject(id, e);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
  if (e.retryAfterSec !== undefined) headers['retry-after'] = String(e.retryAfterSec);
  out.reply(e.status, headers, body);
}

/** Writes a JSON answer; gzips (asynchronously, off the event loop) only big answers for clients that accept it. */
function send(
  out: TOut,
  status: number,
  body: Buffer | string,
  cors: Record<string, string>,
): void | Promise<void> {
  const len = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const accept = len >= GZIP_MIN_BYTES ? out.acceptEncoding : undefined;
  if (accept === undefined || !accept.includes('gzip')) {
    // Fixed-shape header objects (no spread of an empty CORS object on the common path).
    const origin = cors['access-control-allow-origin'];
    out.reply(
      status,
      origin === undefined
        ? { 'content-type': 'application/json', 'content-length': len }
        : {
            'content-type': 'application/json',
            'content-length': len,
            'access-control-allow-origin': origin,
            vary: 'Origin',
          },
      body,
    );
    return;
  }
  return gzipAsync(body).then((zipped) => {
    const origin = cors['access-control-allow-origin'];
    out.reply(
      status,
      {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': zipped.length,
        vary: origin ? 'Origin, Accept-Encoding' : 'Accept-Encoding',
        ...(origin ? { 'access-control-allow-origin': origin } : {}),
      },
      zipped,
    );
  });
}

class BodyError extends Error {
  constructor(readonly gatewayError: TGatewayError) {
    super(gatewayError.message);
  }
}

/** Reads the request body; `done` is called at most once (never after a size refusal). No promise per call. */
function readBodyTo(
  req: IncomingMessage,
  max: number,
  done: (err: unknown, body: Buffer | undefined) => void,
): void {
  const declared = Number(req.headers['content-length']);
  if (declared > max) {
    done(new BodyError(ERR.bodyTooLarge(max)), undefined);
    req.resume();
    return;
  }
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  let settled = false;
  req.on('data', (c: Buffer) => {
    if (settled) return;
    size += c.length;
    if (size > max) {
      settled = true;
      done(new BodyError(ERR.bodyTooLarge(max)), undefined);
      req.destroy();
      return;
    }
    if (first === undefined) first = c;
    else (chunks ??= [first]).push(c);
  });
  req.on('end', () => {
    if (settled) return;
    settled = true;
    done(null, chunks ? Buffer.concat(chunks) : (first ?? Buffer.alloc(0)));
  });
  req.on('error', (err) => {
    if (settled) return;
    settled = true;
    done(err, undefined);
  });
}

function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    readBodyTo(req, max, (err, body) => (err ? reject(err) : resolve(body as Buffer))),
  );
}

async function decodeBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const raw = await readBody(req, max);
  const enc = req.headers['content-encoding'];
  if (enc === undefined || enc === 'identity') return raw;
  if (enc !== 'gzip') throw new BodyError(ERR.unsupportedEncoding(String(enc)));
  try {
    return await gunzipAsync(raw, { maxOutputLength: max });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new BodyError(ERR.bodyTooLarge(max));
    throw new BodyError(ERR.parse('invalid gzip body'));
  }
}

function resultOf(body: Buffer): unknown {
  try {
    return (JSON.parse(body.toString('utf8')) as { result?: unknown }).result;
  } catch {
    return undefined;
  }
}

/** GET /metrics for who may scrape (metrics.ts); everyone else gets the 404 of any unknown path. */
function serveMetrics(ctx: TGatewayContext, req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const m = ctx.metrics;
  if (req.method !== 'GET' || !isScrapeAllowed(m.token, req.headers, req.socket.remoteAddress))
    return sendError(nodeOut(ctx, req, res), ERR.notFound(), null);
  m.collect().then(
    (text) => {
      res
        .writeHead(200, { 'content-type': m.registry.contentType, 'cache-control': 'no-store' })
        .end(text);
    },
    () => fail(nodeOut(ctx, req, res)),
  );
}

/** Last resort for an unexpected exception: a 500 if nothing was sent yet, else the connection is cut. */
function fail(out: TOut): void {
  if (!out.sent) sendError(out, { status: 500, code: -32603, message: 'internal error' }, null);
  else out.destroy();
}

export function createHttpHandler(ctx: TGatewayContext) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const out = nodeOut(ctx, req, res);
    try {
      handle(ctx, req, res, out);
    } catch {
      fail(out);
    }
  };
}

/**
 * A POST to a gateway path whose body the raw front has already read (plain, Content-Length framed): the same
 * checks and answers as node:http's path from the key check on.
 */
export function serveReadCall(
  ctx: TGatewayContext,
  out: TOut,
  target: TPathTarget,
  origin: string | undefined,
  ip: string,
  body: Buffer,
  started: number,
): void {
  try {
    const admitted = admit(ctx, target, origin, ip);
    if ('status' in admitted) return sendError(out, admitted, null);
    const cors = corsHeaders(origin);
    if (body.length > ctx.maxBodyBytes)
      return sendError(
        out,
        refuse(ctx, admitted, ERR.bodyTooLarge(ctx.maxBodyBytes), started),
        null,
        cors,
      );
    afterBody(ctx, out, admitted, body, cors, started);
  } catch {
    fail(out);
  }
}

/**
 * The hot path is written with callbacks, not async/await: a single call costs no promise and no async frame
 * between the request arriving and the answer being written (gzip and batches still use promises).
 */
function handle(ctx: TGatewayContext, req: IncomingMessage, res: ServerResponse, out: TOut): void {
  const started = performance.now();
  const url = req.url ?? '/';
  if (url === '/health') {
    out.reply(200, { 'content-type': 'application/json' }, '{"ok":true}');
    return;
  }
  const target = parsePath(url);
  if (!target) {
    if (url === '/metrics' || url.startsWith('/metrics?')) return serveMetrics(ctx, req, res);
    return sendError(out, rejected(ctx, ERR.notFound()), null);
  }
  const origin = req.headers.origin;
  const admitted = admit(ctx, target, origin, clientIp(ctx, req));
  if ('status' in admitted) {
    // A refused origin gets no CORS headers, so the browser blocks the page from reading anything.
    req.resume();
    return sendError(out, admitted, null);
  }
  const cors = corsHeaders(origin);
  if (req.method === 'OPTIONS') {
    // A fixed list, never the reflection of whatever the page asked for.
    out.reply(204, {
      ...cors,
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': CORS_ALLOWED_HEADERS,
      'access-control-max-age': '600',
    });
    return;
  }
  if (req.method !== 'POST') {
    req.resume();
    const e = rejectedFor(ctx, admitted, 'http', ERR.methodNotAllowedHttp());
    return sendError(out, e, null, { ...cors, allow: 'POST, OPTIONS' });
  }

  // Closures are passed inline, never bound to a name: tsx/esbuild (keepNames) would wrap a named per-call
  // closure in a `__name` call (an Object.defineProperty per call), which showed up in the profile.
  const enc = req.headers['content-encoding'];
  if (enc === undefined || enc === 'identity')
    readBodyTo(req, ctx.maxBodyBytes, (err, body) =>
      onBody(ctx, out, admitted, cors, started, err, body),
    );
  else
    decodeBody(req, ctx.maxBodyBytes).then(
      (body) => onBody(ctx, out, admitted, cors, started, null, body),
      (err: unknown) => onBody(ctx, out, admitted, cors, started, err, undefined),
    );
}

function onBody(
  ctx: TGatewayContext,
  out: TOut,
  admitted: TAdmitted,
  cors: Record<string, string>,
  started: number,
  err: unknown,
  body: Buffer | undefined,
): void {
  try {
    if (err) {
      if (err instanceof BodyError)
        return sendError(out, refuse(ctx, admitted, err.gatewayError, started), null, cors);
      return fail(out);
    }
    afterBody(ctx, out, admitted, body as Buffer, cors, started);
  } catch {
    fail(out);
  }
}

function afterBody(
  ctx: TGatewayContext,
  out: TOut,
  admitted: TAdmitted,
  body: Buffer,
  cors: Record<string, string>,
  started: number,
): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return sendError(
      out,
      refuse(ctx, admitted, ERR.parse('body is not valid JSON'), started),
      null,
      cors,
    );
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0)
      return sendError(out, refuse(ctx, admitted, ERR.emptyBatch(), started), null, cors);
    // The tier's batch size follows its rate; a dedicated node is not held to the shared tier.
    const max = admitted.dedicated ? ctx.maxBatch : maxBatchOf(admitted.key.tier, ctx.maxBatch);
    if (parsed.length > max)
      return sendError(
        out,
        refuse(ctx, admitted, ERR.batchTooLarge(parsed.length, max), started),
        null,
        cors,
      );
    handleBatch(ctx, out, admitted, parsed as unknown[], cors, started).catch(() => fail(out));
    return;
  }
  if (!parsed || typeof parsed !== 'object')
    return sendError(
      out,
      refuse(
        ctx,
        admitted,
        ERR.invalidRequest('expected a JSON-RPC object or a batch array'),
        started,
      ),
      null,
      cors,
    );
  handleSingle(ctx, out, admitted, parsed, cors, started);
}

/** A refusal of the whole request of a known key (bad body): in its request log with no method. */
function refuse(
  ctx: TGatewayContext,
  a: TAdmitted,
  e: TGatewayError,
  started: number,
): TGatewayError {
  return rejectedFor(ctx, a, 'http', e, '', started);
}

function handleSingle(
  ctx: TGatewayContext,
  out: TOut,
  a: TAdmitted,
  raw: unknown,
  cors: Record<string, string>,
  started: number,
): void {
  const call = prepareCall(ctx, a, raw, 'http');
  if ('status' in call) return sendError(out, call, idOf(raw), cors);
  const tickets = admitCalls(ctx, a, [call], started);
  if (!Array.isArray(tickets)) return sendError(out, tickets, call.id, cors);
  const ticket = tickets[0] as TTicket;
  // Only the JSON-RPC members go up (with the caller's id); the answer comes back unchanged, unparsed: metering
  // needs only its size and whether it is an error.
  const upBody = JSON.stringify(upstreamCall(call, call.id));
  try {
    // Archive reads are not quick: old state can take a node a while to find.
    const quick = !call.route.archive && isQuickRead(ctx.ruTable, call.method);
    ctx.upstreams.sendTo(call.route.group, upBody, quick, (reply) => {
      try {
        if (!reply) {
          settleCall(ctx, ticket, { kind: 'failed' });
          return sendError(out, ERR.upstreamUnavailable(), call.id, cors);
        }
        const isError = reply.status !== 200 || isErrorBody(reply.body);
        // The error code is read (without parsing) only from error answers, and only when it is logged.
        const errorCode = isError && ctx.requestLog ? errorCodeOfBody(reply.body) : null;
        settleCall(ctx, ticket, { kind: 'answered', bytes: reply.body.length, isError, errorCode });
        // Parsed only for the few methods whose answer we must remember (new filter ids).
        if (!isError && FILTER_METHODS.has(call.method))
          noteResult(ctx, ticket, resultOf(reply.body));
        const pending = send(out, reply.status, reply.body, cors);
        if (pending) pending.catch(() => fail(out));
      } catch {
        settleCall(ctx, ticket, { kind: 'cancelled' });
        fail(out);
      }
    });
  } catch (err) {
    // sendTo does not throw (a dispatch error becomes a failed attempt); the hold must still be released.
    settleCall(ctx, ticket, { kind: 'cancelled' });
    throw err;
  }
}

async function handleBatch(
  ctx: TGatewayContext,
  out: TOut,
  a: TAdmitted,
  calls: unknown[],
  cors: Record<string, string>,
  started: number,
): Promise<void> {
  const answers: (string | undefined)[] = new Array(calls.length);
  const prepared: TPreparedCall[] = [];
  const indexOf: number[] = [];
  for (let i = 0; i < calls.length; i++) {
    const c = prepareCall(ctx, a, calls[i], 'http');
    if ('status' in c) {
      answers[i] = errorObject(idOf(calls[i]), c);
      continue;
    }
    prepared.push(c);
    indexOf.push(i);
  }

  if (prepared.length > 0) {
    const tickets = admitCalls(ctx, a, prepared, started);
    // Limits and the balance apply to the batch as a whole: one refusal for all of it.
    if (!Array.isArray(tickets)) return sendError(out, tickets, null, cors);
    const groups = new Map<string, { slot: number; ticket: TTicket }[]>();
    tickets.forEach((ticket, slot) => {
      const g = groups.get(ticket.call.route.name);
      if (g) g.push({ slot, ticket });
      else groups.set(ticket.call.route.name, [{ slot, ticket }]);
    });
    try {
      await Promise.all(
        [...groups.values()].map(async (members) => {
          // Our own ids on the way up (0..n-1), the caller's on the way back: duplicate or missing ids are safe.
          const upBody = JSON.stringify(members.map((m, j) => upstreamCall(m.ticket.call, j)));
          const group = (members[0] as { ticket: TTicket }).ticket.call.route.group;
          const reply = await ctx.upstreams.send(group, upBody);
          const byId = new Map<number, { result?: unknown; error?: unknown }>();
          if (reply && reply.status === 200) {
            let items: unknown;
            try {
              items = JSON.parse(reply.body.toString('utf8'));
            } catch {
              items = undefined;
            }
            if (Array.isArray(items))
              for (const it of items) {
                const o = it as { id?: unknown; result?: unknown; error?: unknown };
                if (typeof o?.id === 'number') byId.set(o.id, o);
              }
          }
          members.forEach(({ slot, ticket }, j) => {
            const c = ticket.call;
            const index = indexOf[slot] as number;
            const item = byId.get(j);
            if (!item) {
              settleCall(ctx, ticket, { kind: 'failed' });
              answers[index] = errorObject(c.id, ERR.upstreamUnavailable());
              return;
            }
            const isError = item.error !== undefined || !('result' in item);
            const text = isError
              ? JSON.stringify({ jsonrpc: '2.0', id: c.id ?? null, error: item.error })
              : JSON.stringify({ jsonrpc: '2.0', id: c.id ?? null, result: item.result });
            settleCall(ctx, ticket, {
              kind: 'answered',
              bytes: Buffer.byteLength(text),
              isError,
              errorCode: isError ? errorCodeOfObject(item.error) : null,
            });
            if (!isError) noteResult(ctx, ticket, item.result);
            answers[index] = text;
          });
        }),
      );
    } finally {
      // Whatever went wrong above, no call keeps its hold or its limiter slot.
      for (const t of tickets) settleCall(ctx, t, { kind: 'cancelled' });
    }
  }
  // Calls without an id are notifications: JSON-RPC says they get no response entry.
  const parts: string[] = [];
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i];
    const text = answers[i];
    if (text !== undefined && !(isCallShape(c) && !('id' in c))) parts.push(text);
  }
  await send(out, 200, `[${parts.join(',')}]`, cors);
}
