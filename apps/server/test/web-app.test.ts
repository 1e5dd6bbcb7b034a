/** Serving the built web app (issue 17): precompressed copies by Accept-Encoding, cache headers, SPA fallback. */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { openDatabase } from '@rpc/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../web/precompress-plugin';
import { createHarness, type THarness } from './helpers/harness';

let dist: string;
let h: THarness;

const SHELL = `<!doctype html><title>console</title>${'<!-- shell padding -->'.repeat(100)}`;
const SCRIPT = `export const answer = ${JSON.stringify('forty-two '.repeat(400))};`;
const MANIFEST = JSON.stringify({ id: 'b1', timestamp: 1, pad: 'x'.repeat(2000) });

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'web-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await mkdir(path.join(dist, 'builds/meta'), { recursive: true });
  await writeFile(path.join(dist, 'index.html'), SHELL);
  await writeFile(path.join(dist, 'assets/app-abc123.js'), SCRIPT);
  await writeFile(path.join(dist, 'assets/tiny-abc123.js'), 'console.log(1)');
  await writeFile(path.join(dist, 'builds/meta/latest.json'), MANIFEST);
  // What the build does (apps/web/precompress-plugin.ts), on this small dist.
  await precompressDir(dist);
  h = await createHarness(() => openDatabase({ dataDir: 'memory://' }), { webDistDir: dist });
});

afterAll(async () => {
  await h?.close();
  await rm(dist, { recursive: true, force: true });
});

function get(url: string, headers: Record<string, string> = {}) {
  return h.server.app.inject({ method: 'GET', url, headers });
}

function decode(encoding: string | undefined, body: Buffer): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

describe('the built web app', () => {
  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate', 'gzip'],
    ['identity', undefined],
    ['', undefined],
  ])(
    'answers Accept-Encoding "%s" with %s, bytes equal to the original',
    async (accept, encoding) => {
      const res = await get('/assets/app-abc123.js', accept ? { 'accept-encoding': accept } : {});
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      if (encoding) expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
      expect(decode(encoding, res.rawPayload)).toBe(SCRIPT);
    },
  );

  it('sends a file too small to be worth compressing as it is', async () => {
    const res = await get('/assets/tiny-abc123.js', { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('console.log(1)');
  });

  it('marks hashed assets immutable for a year', async () => {
    const res = await get('/assets/app-abc123.js', { 'accept-encoding': 'br' });
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    ['the shell at /', '/', { accept: 'text/html', 'accept-encoding': 'br' }],
    ['the shell by name', '/index.html', { 'accept-encoding': 'gzip' }],
    [
      'the build manifest (SPEC §4, polled with a timestamp)',
      '/builds/meta/latest.json?t=1',
      { 'accept-encoding': 'br' },
    ],
  ])('has %s revalidated every time (no-cache), compressed', async (_name, url, headers) => {
    const res = await get(url, headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    const encoding = res.headers['content-encoding'] as string | undefined;
    expect(encoding).toBe(headers['accept-encoding'] === 'gzip' ? 'gzip' : 'br');
    expect(decode(encoding, res.rawPayload)).toBe(url.startsWith('/builds') ? MANIFEST : SHELL);
  });

  it('answers a deep link with the shell (SPA fallback), compressed and not cached', async () => {
    const res = await get('/rpc/endpoint', { accept: 'text/html', 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(decode(res.headers['content-encoding'] as string | undefined, res.rawPayload)).toBe(
      SHELL,
    );
  });

  it('answers a missing asset with 404, not the shell', async () => {
    const res = await get('/assets/missing-abc123.js', { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(404);
  });
});
