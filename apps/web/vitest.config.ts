import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { antdStylesPlugin } from './antd-styles-plugin';
import { methodFlagsPlugin } from './method-flags-plugin';

export default defineProject({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), antdStylesPlugin(), methodFlagsPlugin()],
  define: { 'import.meta.env.VITE_BUILD_ID': JSON.stringify('test-build') },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // The shell tests load lazy pages and Ant Design on first use; the first can take a few seconds.
    testTimeout: 20_000,
  },
});
