/** The HTTP edge of the console API: transport errors as envelopes, request ids, health, discovery, the web app, and one real-port journey. */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { API_BODY_LIMIT_BYTES, ERROR_CODES, METHOD_NAMES } from '@rpc/contract';
import { openDatabase } from '@rpc/db';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BODY_DRAIN_LIMIT_BYTES } from '../src/http/api-route';
import { REDACT_PATHS } from '../src/lib/logger';
import { createHarness, digest, uniqueEmail, type THarness } from './helpers/harness';
import { linkOf } from './helpers/smtp';

const logLines: string[] = [];
const logSink = new Writable({
  write(chunk: Buffer, _enc, done) {
    logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

let h: THarness;
let dist: string;

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'web-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await mkdir(path.join(dist, 'builds/meta'), { recursive: true });
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
  await writeFile(path.join(dist, 'assets/app-abc123.js'), 'console.log(1)');
  await writeFile(path.join(dist, 'builds/meta/latest.json'), '{"id":"b1"}');
  h = await createHarness(() => openDatabase({ dataDir: 'memory://' }), {
    webDistDir: dist,
    // The real redaction config, at debug level, so the "nothing secret in the log" check means something.
    logger: pino(
      { level: 'debug', redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
      logSink,
    ),
  });
});

afterAll(async () => {
  await h?.close();
  await rm(dist, { recursive: true, force: true });
});

async function post(
  payload: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  const res = await h.server.app.inject({ method: 'POST', url: '/api', payload, headers });
  return {
    res,
    body: res.json() as {
      id: unknown;
      error?: { code: number; message: string; messageZh: string };
    },
  };
}

describe('POST /api transport errors', () => {
  it.each([
    [
      'malformed JSON',
      '{"method":',
      { 'content-type': 'application/json' },
      ERROR_CODES.PARSE_ERROR,
    ],
    ['an empty body', '', { 'content-type': 'application/json' }, ERROR_CODES.PARSE_ERROR],
    [
      'text/plain',
      '{"method":"hub_getConfig"}',
      { 'content-type': 'text/plain' },
      ERROR_CODES.UNSUPPORTED_MEDIA_TYPE,
    ],
    [
      'a form post',
      'method=hub_getConfig',
      { 'content-type': 'application/x-www-form-urlencoded' },
      ERROR_CODES.UNSUPPORTED_MEDIA_TYPE,
    ],
    ['no content type', '{"method":"hub_getConfig"}', {}, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE],
    [
      'a batch array',
      '[{"method":"hub_getConfig"}]',
      { 'content-type': 'application/json' },
      ERROR_CODES.INVALID_REQUEST,
    ],
    [
      '__proto__ keys',
      '{"method":"hub_getConfig","params":{"__proto__":{"x":1}}}',
      { 'content-type': 'application/json' },
      ERROR_CODES.INVALID_REQUEST,
    ],
    [
      'an unknown method',
      '{"method":"hub_nope","id":9}',
      { 'content-type': 'application/json' },
      ERROR_CODES.METHOD_NOT_FOUND,
    ],
  ])('answers %s with HTTP 200 and the catalogue error', async (_n, payload, headers, code) => {
    const { res, body } = await post(payload, headers as Record<string, string>);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(body.error?.code).toBe(code);
    expect(body.error?.messageZh).toBeTruthy();
    expect(res.body).not.toMatch(/\s+at\s.+:\d+:\d+/);
  });

  it('answers 10005 for a body over the limit', async () => {
    const payload = JSON.stringify({
      method: 'hub_emailExists',
      params: { email: 'x'.repeat(API_BODY_LIMIT_BYTES) },
    });
    const { res, body } = await post(payload);
    expect(res.statusCode).toBe(200);
    expect(body.error?.code).toBe(ERROR_CODES.PAYLOAD_TOO_LARGE);
  });

  it.each(['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'] as const)(
    'answers %s /api with the envelope (10007) and Allow: POST',
    async (method) => {
      // The body and type of the report: DELETE with an empty JSON body got Fastify's own 400.
      const res = await h.server.app.inject({
        method,
        url: '/api',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers.allow).toBe('POST');
      expect(res.json()).toEqual({
        id: null,
        error: expect.objectContaining({
          code: ERROR_CODES.HTTP_METHOD_NOT_ALLOWED,
          messageZh: expect.any(String),
        }),
      });
    },
  );

  it('answers HEAD /api without a body and any other method even with a body', async () => {
    const head = await h.server.app.inject({ method: 'HEAD', url: '/api' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    const put = await h.server.app.inject({
      method: 'PUT',
      url: '/api',
      payload: '{"method":"hub_getConfig"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(put.json()).toMatchObject({ error: { code: ERROR_CODES.HTTP_METHOD_NOT_ALLOWED } });
  });

  it('accepts application/json with a charset', async () => {
    const { body } = await post('{"method":"hub_getConfig","id":"q"}', {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(body).toMatchObject({ id: 'q', result: { registrationOpen: true } });
  });
});

describe('oversize bodies over a real socket', () => {
  const url = async () => `${h.server.url || (await h.server.start())}/api`;
  const big = JSON.stringify({
    method: 'hub_emailExists',
    params: { email: 'x'.repeat(200 * 1024) },
    id: 7,
  });

  it('answers a 200 KiB body with 10005 the client can read, and the connection stays usable', async () => {
    const res = await fetch(await url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('connection')).not.toBe('close');
    expect(await res.json()).toMatchObject({ error: { code: ERROR_CODES.PAYLOAD_TOO_LARGE } });
    const next = await fetch(await url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"method":"hub_getConfig","id":1}',
    });
    expect(await next.json()).toMatchObject({ id: 1, result: { registrationOpen: true } });
  });

  it('answers 10005 to a chunked body without a length too', async () => {
    const bytes = new TextEncoder().encode(big);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 16 * 1024)
          controller.enqueue(bytes.subarray(i, i + 16 * 1024));
        controller.close();
      },
    });
    const res = await fetch(await url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(await res.json()).toMatchObject({ error: { code: ERROR_CODES.PAYLOAD_TOO_LARGE } });
  });

  it('answers a declared length past the drain limit with 10005 and closes', async () => {
    const res = await h.server.app.inject({
      method: 'POST',
      url: '/api',
      headers: {
        'content-type': 'application/json',
        'content-length': String(API_BODY_DRAIN_LIMIT_BYTES + 1),
      },
      payload: '{}',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers.connection).toBe('close');
    expect(res.json()).toMatchObject({ error: { code: ERROR_CODES.PAYLOAD_TOO_LARGE } });
  });
});

describe('request ids', () => {
  it('makes one up and echoes it, or keeps a sane incoming one', async () => {
    const made = await h.server.app.inject({ method: 'GET', url: '/health' });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await h.server.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'abc.123' },
    });
    expect(kept.headers['x-request-id']).toBe('abc.123');
    const hostile = await h.server.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'a b\u0001<script>' },
    });
    expect(hostile.headers['x-request-id']).not.toContain('<');
    expect(logLines.some((l) => l.includes('"reqId":"abc.123"'))).toBe(true);
  });
});

describe('GET /health and rpc.discover', () => {
  it('reports health', async () => {
    const res = await h.server.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true });
  });

  it('describes every method as OpenRPC', async () => {
    const { body } = await post('{"method":"rpc.discover","id":1}');
    const doc = (
      body as unknown as { result: { openrpc: string; methods: Array<{ name: string }> } }
    ).result;
    expect(doc.openrpc).toMatch(/^1\./);
    expect(doc.methods.map((m) => m.name).sort()).toEqual([...METHOD_NAMES].sort());
  });
});

describe('the web app', () => {
  const html = { accept: 'text/html,application/xhtml+xml' };
  it('serves index.html for app routes, files as files, no-cache for the build manifest', async () => {
    const root = await h.server.app.inject({ method: 'GET', url: '/', headers: html });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('<title>console</title>');
    const route = await h.server.app.inject({
      method: 'GET',
      url: '/rpc/endpoint?x=1',
      headers: html,
    });
    expect(route.statusCode).toBe(200);
    expect(route.body).toContain('<title>console</title>');
    expect(route.headers['cache-control']).toBe('no-cache');

    const asset = await h.server.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toContain('immutable');
    const meta = await h.server.app.inject({ method: 'GET', url: '/builds/meta/latest.json?t=1' });
    expect(meta.json()).toEqual({ id: 'b1' });
    expect(meta.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404, not the app, for missing files; GET /api gets the envelope, not the app', async () => {
    expect(
      (await h.server.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode,
    ).toBe(404);
    const api = await h.server.app.inject({ method: 'GET', url: '/api', headers: html });
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.json()).toMatchObject({ error: { code: ERROR_CODES.HTTP_METHOD_NOT_ALLOWED } });
  });
});

describe('over a real port', () => {
  it('registers, follows the mailed link, signs in, reads the profile, signs out; logs hold no secrets', async () => {
    // Started already if the oversize-body tests ran first.
    const base = h.server.url || (await h.server.start());
    expect(base).toMatch(/^http:\/\/localhost:\d+$/);
    const rpc = async (method: string, params: unknown, token?: string) => {
      const res = await fetch(`${base}/api`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ method, params, id: 1 }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { result?: Record<string, unknown>; error?: { code: number } };
    };
    const email = uniqueEmail('http');
    const password = digest('http-pass');
    expect(
      (await rpc('hub_register', { email, password, confirmPassword: password })).result,
    ).toMatchObject({
      confirmMailSent: true,
    });
    const link = linkOf(await h.smtp.nextMailTo(email));
    const code = link.searchParams.get('code')!;
    // The link opens the web app, which then calls hub_emailConfirm with the code.
    const page = await fetch(`${base}${link.pathname}${link.search}`, {
      headers: { accept: 'text/html' },
    });
    expect(page.status).toBe(200);
    expect((await rpc('hub_emailConfirm', { code })).result).toMatchObject({ confirmed: true });
    const token = (await rpc('hub_login', { email, password })).result!.token as string;
    expect((await rpc('hub_getUserProfile', {}, token)).result).toMatchObject({
      email,
      mailStatus: 1,
    });
    expect((await rpc('hub_logout', {}, token)).result).toEqual({ success: true });
    expect((await rpc('hub_getUserProfile', {}, token)).error?.code).toBe(
      ERROR_CODES.SESSION_REVOKED,
    );

    const log = logLines.join('\n');
    expect(log).toContain('"method":"hub_login"');
    for (const secret of [password, token, code]) expect(log).not.toContain(secret);
  });
});
