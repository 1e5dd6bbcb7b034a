import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { antdStylesPlugin } from './antd-styles-plugin';
import { buildMetaPlugin } from './build-meta-plugin';
import { routeChunkGroups } from './chunk-groups';
import { contractPlugin } from './contract-plugin';
import { localeChunkName } from './src/lib/locale-chunks';
import { methodFlagsPlugin } from './method-flags-plugin';
import { precompressPlugin } from './precompress-plugin';

const backend = process.env.VITE_BACKEND_URL ?? 'http://localhost:3000';

/**
 * react-router 7's package exports name only its development files (its issue #12532, "intended to be
 * temporary"), so a build shipped them: dev-only warnings and checks in every page. The build takes its
 * production files instead (same API, same version); the dev server keeps the development ones.
 */
const reactRouterDir = path.dirname(
  createRequire(import.meta.url).resolve('react-router/package.json'),
);
/** Both entry points, so that a later `react-router/dom` import does not bring a second, development copy. */
const reactRouterProduction = [
  { find: /^react-router$/, replacement: path.join(reactRouterDir, 'dist/production/index.mjs') },
  {
    find: /^react-router\/dom$/,
    replacement: path.join(reactRouterDir, 'dist/production/dom-export.mjs'),
  },
];

export default defineConfig(({ command }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: {
    alias: command === 'build' ? reactRouterProduction : [],
  },
  plugins: [
    contractPlugin(),
    react(),
    antdStylesPlugin(),
    buildMetaPlugin(),
    methodFlagsPlugin(),
    precompressPlugin(),
  ],
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/upload': { target: backend, changeOrigin: true },
      '/avatar': { target: backend, changeOrigin: true },
      '/support': { target: backend, changeOrigin: true },
      '/invoice-pdf': { target: backend, changeOrigin: true },
      '/ws': { target: backend, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Locale files load lazily (lib/i18n.ts): grouped per language, not one request per namespace.
            { name: localeChunkName, priority: 40 },
            // A few larger files per route kind instead of ~95 small ones (chunk-groups.ts).
            ...routeChunkGroups(),
          ],
        },
      },
    },
  },
}));
