/**
 * Serves the built web app (apps/web/dist) with an SPA fallback; missing dist is a warning, not a failure.
 * The build writes brotli and gzip copies beside its text files (apps/web/precompress-plugin.ts); each request
 * gets the best one its Accept-Encoding allows, or the original.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_PATH } from '@rpc/contract';
import type { FastifyInstance } from 'fastify';

export const DEFAULT_WEB_DIST_DIR = path.resolve(import.meta.dirname, '../../../web/dist');

export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<boolean> {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'web app not built (run npm run build); serving the API only');
    return false;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: true,
    index: ['index.html'],
    preCompressed: true,
    // Cache headers come from setHeaders alone; the plugin's default would override them.
    cacheControl: false,
    setHeaders: (res, filePath) => {
      // filePath is the copy being sent (app.js.br for app.js): the rules below are about the original.
      const rel = path
        .relative(distDir, filePath)
        .split(path.sep)
        .join('/')
        .replace(/\.(?:br|gz)$/, '');
      // The same URL answers brotli, gzip or identity: caches must key on Accept-Encoding.
      res.setHeader('vary', 'accept-encoding');
      if (rel.startsWith('builds/meta/') || rel === 'index.html') {
        // The build manifest and the shell must be re-checked every time, or new builds go unnoticed (SPEC §4).
        res.setHeader('cache-control', 'no-cache');
      } else if (rel.startsWith('assets/')) {
        // Vite puts content hashes in asset names, so they never change under the same URL.
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      } else {
        res.setHeader('cache-control', 'public, max-age=0, must-revalidate');
      }
    },
  });

  app.setNotFoundHandler((request, reply) => {
    const accept = request.headers.accept ?? '';
    const pathname = request.url.split('?')[0] ?? '';
    const isApi = pathname === API_PATH || pathname.startsWith(`${API_PATH}/`);
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApi &&
      accept.includes('text/html')
    ) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ error: 'not found' });
  });
  return true;
}
