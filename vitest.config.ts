// Test projects: unit (fast, no I/O), api (server in-process against real databases), web (jsdom).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.unit.test.ts',
            'apps/gateway/src/**/*.unit.test.ts',
            'apps/web/*.unit.test.ts',
            'bench/*.unit.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/server/test/**/*.test.ts', 'apps/gateway/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      './apps/web/vitest.config.ts',
    ],
  },
});
