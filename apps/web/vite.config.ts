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

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
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
});
