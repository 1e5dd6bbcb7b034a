/** The HTTP hot path: POST /v1/{chain}/{apiKey}, single and batch JSON-RPC, gzip, CORS. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzip, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { TAdmitted, TGatewayContext } from './context';
import { admit, checkBalance, checkCall, isErrorBody, parsePath, resolveGroup } from './context';
import type { TGatewayError } from './errors';
import { ERR, errorObject } from './errors';
import { computeRu, estimateRu } from './metering';
import { chooseRoute } from './routing';

const gunzipAsync = promisify(gunzip);
const gzipAsync = promisify(gzip);

/** Responses at least this big are gzipped for clients that accept it. */
const GZIP_MIN_BYTES = 1024;

type TCall = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };

function clientIp(ctx: TGatewayContext, req: IncomingMessage): string {
  if (ctx.trustProxy) {
    const xff = req.headers['x-forwarded-for'];
    if (typeof xff === 'string' && xff) return (xff.split(',')[0] as string).trim();
  }
  return req.socket.remoteAddress ?? '';
}

const NO_CORS: Record<string, string> = Object.freeze({}) as Record<string, string>;

function corsHeaders(origin: string | undefined): Record<string, string> {
  return origin === undefined ? NO_CORS : { 'access-control-allow-origin': origin, vary: 'Origin' };
}

function sendError(
  res: ServerResponse,
  e: TGatewayError,
  id: unknown,
  extra: Record<string, string> = {},
): void {
  const body = errorObject(id, e);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
  if (e.retryAfterSec !== undefined) headers['retry-after'] = String(e.retryAfterSec);
  res.writeHead(e.status, headers).end(body);
}

/** Writes a JSON answer; gzips (asynchronously, off the event loop) only big answers for clients that accept it. */
function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: Buffer | string,
  cors: Record<string, string>,
): void | Promise<void> {
  const len = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const accept = len >= GZIP_MIN_BYTES ? req.headers['accept-encoding'] : undefined;
  if (typeof accept !== 'string' || !accept.includes('gzip')) {
    // Fixed-shape header objects (no spread of an empty CORS object on the common path).
    const origin = cors['access-control-allow-origin'];
    res.writeHead(
      status,
      origin === undefined
        ? { 'content-type': 'application/json', 'content-length': len }
        : {
            'content-type': 'application/json',
            'content-length': len,
            'access-control-allow-origin': origin,
            vary: 'Origin',
          },
    );
    res.end(body);
    return;
  }
  return gzipAsync(body).then((zipped) => {
    const origin = cors['access-control-allow-origin'];
    res
      .writeHead(status, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': zipped.length,
        vary: origin ? 'Origin, Accept-Encoding' : 'Accept-Encoding',
        ...(origin ? { 'access-control-allow-origin': origin } : {}),
      })
      .end(zipped);
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

/** Last resort for an unexpected exception: a 500 if nothing was sent yet, else the connection is cut. */
function fail(res: ServerResponse): void {
  if (!res.headersSent)
    sendError(res, { status: 500, code: -32603, message: 'internal error' }, null);
  else res.destroy();
}

export function createHttpHandler(ctx: TGatewayContext) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    try {
      handle(ctx, req, res);
    } catch {
      fail(res);
    }
  };
}

/**
 * The hot path is written with callbacks, not async/await: a single call costs no promise and no async frame
 * between the request arriving and the answer being written (gzip and batches still use promises).
 */
function handle(ctx: TGatewayContext, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  const url = req.url ?? '/';
  if (url === '/health') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    return;
  }
  const target = parsePath(url);
  if (!target) return sendError(res, ERR.notFound(), null);
  const origin = req.headers.origin;
  const admitted = admit(ctx, target, origin, clientIp(ctx, req));
  if ('status' in admitted) {
    // A refused origin gets no CORS headers, so the browser blocks the page from reading anything.
    req.resume();
    return sendError(res, admitted, null);
  }
  const cors = corsHeaders(origin);
  if (req.method === 'OPTIONS') {
    const asked = req.headers['access-control-request-headers'];
    res
      .writeHead(204, {
        ...cors,
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers':
          typeof asked === 'string' ? asked : 'content-type, content-encoding',
        'access-control-max-age': '600',
      })
      .end();
    return;
  }
  if (req.method !== 'POST') {
    req.resume();
    return sendError(res, ERR.methodNotAllowedHttp(), null, { ...cors, allow: 'POST, OPTIONS' });
  }

  // Closures are passed inline, never bound to a name: tsx/esbuild (keepNames) would wrap a named per-call
  // closure in a `__name` call (an Object.defineProperty per call), which showed up in the profile.
  const enc = req.headers['content-encoding'];
  if (enc === undefined || enc === 'identity')
    readBodyTo(req, ctx.maxBodyBytes, (err, body) =>
      onBody(ctx, req, res, admitted, cors, started, err, body),
    );
  else
    decodeBody(req, ctx.maxBodyBytes).then(
      (body) => onBody(ctx, req, res, admitted, cors, started, null, body),
      (err: unknown) => onBody(ctx, req, res, admitted, cors, started, err, undefined),
    );
}

function onBody(
  ctx: TGatewayContext,
  req: IncomingMessage,
  res: ServerResponse,
  admitted: TAdmitted,
  cors: Record<string, string>,
  started: number,
  err: unknown,
  body: Buffer | undefined,
): void {
  try {
    if (err) {
      if (err instanceof BodyError) return sendError(res, err.gatewayError, null, cors);
      return fail(res);
    }
    afterBody(ctx, req, res, admitted, body as Buffer, cors, started);
  } catch {
    fail(res);
  }
}

function afterBody(
  ctx: TGatewayContext,
  req: IncomingMessage,
  res: ServerResponse,
  admitted: TAdmitted,
  body: Buffer,
  cors: Record<string, string>,
  started: number,
): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return sendError(res, ERR.parse('body is not valid JSON'), null, cors);
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return sendError(res, ERR.emptyBatch(), null, cors);
    if (parsed.length > ctx.maxBatch)
      return sendError(res, ERR.batchTooLarge(parsed.length, ctx.maxBatch), null, cors);
  } else if (!parsed || typeof parsed !== 'object') {
    return sendError(
      res,
      ERR.invalidRequest('expected a JSON-RPC object or a batch array'),
      null,
      cors,
    );
  }
  const noRu = checkBalance(ctx, admitted);
  if (noRu) return sendError(res, noRu, Array.isArray(parsed) ? null : (parsed as TCall).id, cors);

  if (Array.isArray(parsed)) {
    handleBatch(ctx, req, res, admitted, parsed as unknown[], cors, started).catch(() => fail(res));
    return;
  }
  handleSingle(ctx, req, res, admitted, parsed as TCall, body, cors, started);
}

function validCall(c: unknown): c is TCall & { method: string } {
  return (
    !!c && typeof c === 'object' && !Array.isArray(c) && typeof (c as TCall).method === 'string'
  );
}

function handleSingle(
  ctx: TGatewayContext,
  req: IncomingMessage,
  res: ServerResponse,
  a: TAdmitted,
  call: TCall,
  body: Buffer,
  cors: Record<string, string>,
  started: number,
): void {
  if (!validCall(call))
    return sendError(res, ERR.invalidRequest('missing "method"'), call.id, cors);
  const method = call.method;
  const denied = checkCall(a.key, method, call.params);
  if (denied) return sendError(res, denied, call.id, cors);
  const route = resolveGroup(a.ups, chooseRoute(a.key, method, call.params, a.ups.head));
  if (!route) return sendError(res, ERR.unsupportedMethod(method, a.chain.id), call.id, cors);
  const estimate = estimateRu(ctx.ruTable, method);
  const verdict = ctx.limiter.acquire(a.key.keyId, a.key.tier, 1, estimate);
  if (!verdict.ok)
    return sendError(res, ERR.rateLimited(verdict.message, verdict.retryAfterSec), call.id, cors);

  // The body goes up unchanged (the caller's id included) and the answer comes back unchanged: no parse and
  // no re-serialisation of the upstream's answer; metering needs only its size and result/error presence.
  let ru = 0;
  try {
    ctx.upstreams.sendTo(route.group, body, (reply) => {
      let pending: void | Promise<void> = undefined;
      try {
        const latency = performance.now() - started;
        if (!reply) {
          ctx.usage.record(
            a.key.accountId,
            a.key.keyId,
            a.chain.id,
            method,
            Date.now(),
            0,
            true,
            latency,
          );
          return sendError(res, ERR.upstreamUnavailable(), call.id, cors);
        }
        const isError = reply.status !== 200 || isErrorBody(reply.body);
        ru = computeRu(
          {
            method,
            responseBytes: reply.body.length,
            archive: route.archive,
            multiplier: a.chain.ruMultiplier,
            outcome: isError ? 'upstream_error' : 'ok',
          },
          ctx.ruTable,
        );
        ctx.usage.record(
          a.key.accountId,
          a.key.keyId,
          a.chain.id,
          method,
          Date.now(),
          ru,
          isError,
          latency,
        );
        if (ru > 0) ctx.balance.consume(a.key.accountId, ru);
        pending = send(req, res, reply.status, reply.body, cors);
      } catch {
        fail(res);
      } finally {
        // With gzip the call counts as in flight until the compressed answer is written, as before.
        if (pending)
          pending.then(
            () => ctx.limiter.release(a.key.keyId, estimate, ru),
            () => {
              ctx.limiter.release(a.key.keyId, estimate, ru);
              fail(res);
            },
          );
        else ctx.limiter.release(a.key.keyId, estimate, ru);
      }
    });
  } catch (err) {
    // sendTo does not throw (a dispatch error becomes a failed attempt); kept for the in-flight count.
    ctx.limiter.release(a.key.keyId, estimate, ru);
    throw err;
  }
}

type TBatchSlot = {
  index: number;
  call: TCall & { method: string };
  archive: boolean;
  estimate: number;
};

async function handleBatch(
  ctx: TGatewayContext,
  req: IncomingMessage,
  res: ServerResponse,
  a: TAdmitted,
  calls: unknown[],
  cors: Record<string, string>,
  started: number,
): Promise<void> {
  const out: (string | undefined)[] = new Array(calls.length);
  const groups = new Map<
    string,
    { resolved: NonNullable<ReturnType<typeof resolveGroup>>; slots: TBatchSlot[] }
  >();
  let estimate = 0;
  let forwarded = 0;
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i];
    if (!validCall(c)) {
      out[i] = errorObject((c as TCall | null)?.id, ERR.invalidRequest('missing "method"'));
      continue;
    }
    const denied = checkCall(a.key, c.method, c.params);
    if (denied) {
      out[i] = errorObject(c.id, denied);
      continue;
    }
    const resolved = resolveGroup(a.ups, chooseRoute(a.key, c.method, c.params, a.ups.head));
    if (!resolved) {
      out[i] = errorObject(c.id, ERR.unsupportedMethod(c.method, a.chain.id));
      continue;
    }
    const e = estimateRu(ctx.ruTable, c.method);
    estimate += e;
    forwarded += 1;
    let g = groups.get(resolved.name);
    if (!g) groups.set(resolved.name, (g = { resolved, slots: [] }));
    g.slots.push({ index: i, call: c, archive: resolved.archive, estimate: e });
  }

  let charged = 0;
  if (forwarded > 0) {
    const verdict = ctx.limiter.acquire(a.key.keyId, a.key.tier, forwarded, estimate);
    if (!verdict.ok)
      return sendError(res, ERR.rateLimited(verdict.message, verdict.retryAfterSec), null, cors);
    try {
      await Promise.all(
        [...groups.values()].map(async ({ resolved, slots }) => {
          // Our own ids on the way up (0..n-1), the caller's on the way back: duplicate or missing ids are safe.
          const upstreamBody = JSON.stringify(
            slots.map((s, j) => ({
              jsonrpc: '2.0',
              id: j,
              method: s.call.method,
              params: s.call.params ?? [],
            })),
          );
          const reply = await ctx.upstreams.send(resolved.group, upstreamBody);
          const latency = performance.now() - started;
          let items: unknown[] | undefined;
          if (reply && reply.status === 200) {
            try {
              const parsed: unknown = JSON.parse(reply.body.toString('utf8'));
              if (Array.isArray(parsed)) items = parsed;
            } catch {
              items = undefined;
            }
          }
          const byId = new Map<number, { result?: unknown; error?: unknown }>();
          for (const it of items ?? []) {
            const o = it as { id?: unknown; result?: unknown; error?: unknown };
            if (typeof o?.id === 'number') byId.set(o.id, o);
          }
          slots.forEach((s, j) => {
            const item = byId.get(j);
            const now = Date.now();
            if (!item) {
              ctx.usage.record(
                a.key.accountId,
                a.key.keyId,
                a.chain.id,
                s.call.method,
                now,
                0,
                true,
                latency,
              );
              out[s.index] = errorObject(s.call.id, ERR.upstreamUnavailable());
              return;
            }
            const isError = item.error !== undefined || !('result' in item);
            const text = isError
              ? JSON.stringify({ jsonrpc: '2.0', id: s.call.id ?? null, error: item.error })
              : JSON.stringify({ jsonrpc: '2.0', id: s.call.id ?? null, result: item.result });
            const ru = computeRu(
              {
                method: s.call.method,
                responseBytes: Buffer.byteLength(text),
                archive: s.archive,
                multiplier: a.chain.ruMultiplier,
                outcome: isError ? 'upstream_error' : 'ok',
              },
              ctx.ruTable,
            );
            charged += ru;
            ctx.usage.record(
              a.key.accountId,
              a.key.keyId,
              a.chain.id,
              s.call.method,
              now,
              ru,
              isError,
              latency,
            );
            out[s.index] = text;
          });
        }),
      );
    } finally {
      ctx.limiter.release(a.key.keyId, estimate, charged);
    }
    if (charged > 0) ctx.balance.consume(a.key.accountId, charged);
  }
  // Calls without an id are notifications: JSON-RPC says they get no response entry.
  const parts: string[] = [];
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i] as TCall | null;
    const text = out[i];
    if (text !== undefined && !(validCall(c) && c.id === undefined)) parts.push(text);
  }
  await send(req, res, 200, `[${parts.join(',')}]`, cors);
}
