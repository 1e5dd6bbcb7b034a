/**
 * Vite plugin: the contract's barrel without its side effect, so a page gets the schemas it uses and no others.
 *
 * `packages/contract/src/index.ts` is marked side-effectful (it imports `zod-config.ts`, which switches zod's eval
 * probe off in browsers before any schema exists: the console's CSP forbids eval). A side-effectful module is run
 * in full wherever it is imported, and ESM runs every module it re-exports first: so one `ERROR_CODES` import in
 * the request client put every method's zod schemas and zod itself (≈ 40 KB compressed) into the first file every
 * page loads. Here the barrel is resolved as side-effect free (an import is followed to the module defining the
 * name), and each contract module that imports zod imports `zod-config.ts` first, so the switch still comes before
 * any schema, on whichever page builds one.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const CONTRACT_SRC = fileURLToPath(new URL('../../packages/contract/src/', import.meta.url));
export const ZOD_CONFIG = `${CONTRACT_SRC}zod-config.ts`;
const CONTRACT_ENTRY = `${CONTRACT_SRC}index.ts`;
/** A value import of zod (`import type` builds no schema). */
const IMPORTS_ZOD = /^\s*import\s+(?!type\s)[^;]*?from\s*['"]zod(?:\/[^'"]*)?['"]/m;

/** `code` of a contract module with the zod switch imported first when it imports zod (else unchanged). */
export function withZodConfigFirst(id: string, code: string): string | null {
  if (!id.startsWith(CONTRACT_SRC) || id === ZOD_CONFIG || !IMPORTS_ZOD.test(code)) return null;
  // On the first line, so no line moves: the contract's own source maps stay right (`map: null` below).
  return `import ${JSON.stringify(ZOD_CONFIG)}; ${code}`;
}

export function contractPlugin(): Plugin {
  return {
    name: 'rpc-console:contract',
    enforce: 'pre',
    apply: 'build',
    async resolveId(source, importer, options) {
      if (source !== '@rpc/contract') return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved?.id !== CONTRACT_ENTRY) return resolved;
      return { ...resolved, moduleSideEffects: false };
    },
    transform(code, id) {
      const changed = withZodConfigFirst(id, code);
      return changed === null ? null : { code: changed, map: null };
    },
  };
}
