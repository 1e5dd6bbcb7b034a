/** Security headers on every console answer (issue 9): CSP, framing, sniffing, referrer, permissions; HSTS only over TLS. */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '@rpc/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type THarness } from './helpers/harness';

let dist: string;
let h: THarness;
let proxied: THarness;

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'web-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
  await writeFile(path.join(dist, 'assets/app-abc123.js'), 'console.log(1)');
  h = await createHarness(() => openDatabase({ dataDir: 'memory://' }), { webDistDir: dist });
  proxied = await createHarness(() => openDatabase({ dataDir: 'memory://' }), {
    webDistDir: dist,
    env: { PORT: 0, TRUST_PROXY: 1 },
  });
});

afterAll(async () => {
  await h?.close();
  await proxied?.close();
  await rm(dist, { recursive: true, force: true });
});

const html = { accept: 'text/html' };

describe('security headers', () => {
  it.each([
    ['the app shell', 'GET', '/', html],
    ['an app route (SPA fallback)', 'GET', '/rpc/endpoint', html],
    ['a built asset', 'GET', '/assets/app-abc123.js', {}],
    ['an /api envelope', 'POST', '/api', { 'content-type': 'application/json' }],
    ['a 404', 'GET', '/assets/missing.js', {}],
    ['health', 'GET', '/health', {}],
  ] as const)('are on %s', async (_name, method, url, headers) => {
    const res = await h.server.app.inject({
      method,
      url,
      headers,
      ...(method === 'POST' ? { payload: '{"method":"hub_getConfig","id":1}' } : {}),
    });
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self' ws://console.test;");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['permissions-policy']).toContain('camera=()');
    // Plain HTTP: HSTS would be ignored, and must never be sent where TLS is not certain.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS when a trusted proxy says the request came over TLS', async () => {
    const res = await proxied.server.app.inject({
      method: 'GET',
      url: '/',
      headers: { ...html, 'x-forwarded-proto': 'https' },
    });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
  });

  it('ignores X-Forwarded-Proto without TRUST_PROXY (a client cannot claim TLS)', async () => {
    const res = await h.server.app.inject({
      method: 'GET',
      url: '/',
      headers: { ...html, 'x-forwarded-proto': 'https' },
    });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});

describe("the web app's HTML passes script-src 'self'", () => {
  const source = path.resolve(import.meta.dirname, '../../web/index.html');
  const built = path.resolve(import.meta.dirname, '../../web/dist/index.html');

  function inlineScripts(page: string): string[] {
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    const inline = scripts.filter(
      ([, attrs, body]) => !/\bsrc=/.test(attrs!) || body!.trim() !== '',
    );
    const handlers = page.match(/\son[a-z]+\s*=/gi) ?? [];
    const jsUrls = page.match(/javascript:/gi) ?? [];
    return [...inline.map(([tag]) => tag), ...handlers, ...jsUrls];
  }

  it('apps/web/index.html has no inline script, event handler or javascript: URL', () => {
    expect(inlineScripts(readFileSync(source, 'utf8'))).toEqual([]);
  });

  it.skipIf(!existsSync(built))('nor has the built apps/web/dist/index.html', () => {
    const page = readFileSync(built, 'utf8');
    expect(page).toMatch(/<script type="module" crossorigin src="\/assets\//);
    expect(inlineScripts(page)).toEqual([]);
  });
});
