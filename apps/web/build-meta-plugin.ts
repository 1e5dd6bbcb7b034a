/** Vite plugin: gives every build an id, injects it into the app and emits builds/meta/{latest,<id>}.json. */
import { randomBytes } from 'node:crypto';
import type { Plugin } from 'vite';

export const BUILD_ID_ENV = 'VITE_BUILD_ID';

export function buildMetaPlugin(): Plugin {
  const id = process.env.BUILD_ID ?? `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const timestamp = Date.now();
  return {
    name: 'rpc-console:build-meta',
    config() {
      return { define: { [`import.meta.env.${BUILD_ID_ENV}`]: JSON.stringify(id) } };
    },
    generateBundle() {
      const source = JSON.stringify({ id, timestamp });
      // latest.json is what running apps poll; <id>.json keeps each build's record (SPEC §7).
      this.emitFile({ type: 'asset', fileName: 'builds/meta/latest.json', source });
      this.emitFile({ type: 'asset', fileName: `builds/meta/${id}.json`, source });
    },
  };
}
