/**
 * Vite plugin: `import 'virtual:antd-styles.css'` (components/antd-scope.tsx) is antd's component CSS generated at
 * build time (antd-static-styles.ts), so the browser skips generating it on first render. The stylesheet belongs to
 * the chunk of antd-scope.tsx (the `antd` group, chunk-groups.ts): it loads with antd, before antd's first render
 * reads the stylesheet's cache-path map, and pages without antd (sign-in, sign-up) never fetch it.
 *
 * In `vite` (dev) and the tests the module is empty and antd generates its styles at run time as it always did:
 * the map is then empty, and a component not in the map is generated as before.
 */
import type { Plugin } from 'vite';

export const ANTD_STYLES_ID = 'virtual:antd-styles.css';
const RESOLVED_ID = `\0${ANTD_STYLES_ID}`;

export function antdStylesPlugin(): Plugin {
  let build = false;
  return {
    name: 'rpc:antd-styles',
    configResolved(config) {
      build = config.command === 'build';
    },
    resolveId(id) {
      return id === ANTD_STYLES_ID ? RESOLVED_ID : undefined;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      if (!build) return '';
      // Loaded here, not at the top: `vite` (dev) and the config's other users never pay for rendering antd.
      const { extractAntdStyles } = await import('./antd-static-styles');
      return extractAntdStyles();
    },
  };
}
