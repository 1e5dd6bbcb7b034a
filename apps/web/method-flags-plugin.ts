/**
 * Vite plugin: the module `virtual:rpc-method-flags`, the request client's per-method flags (SPEC §8–9: hideError,
 * hideLimit, limitType, keepDuplicates) read from the contract's method table when the app is built. The contract
 * stays the one source of truth, and the browser gets a small table instead of every method's zod schemas (which
 * would otherwise load with the request client on every page, the sign-in page included).
 */
import { fileURLToPath } from 'node:url';
import type * as contract from '@rpc/contract';
import type { Plugin } from 'vite';
import { runnerImport } from 'vite';

export const METHOD_FLAGS_MODULE = 'virtual:rpc-method-flags';
const RESOLVED_ID = `\0${METHOD_FLAGS_MODULE}`;
const CONTRACT_ENTRY = fileURLToPath(
  new URL('../../packages/contract/src/index.ts', import.meta.url),
);

type TContract = typeof contract;

/** The flags of every method that has one; methods without flags are left out. */
export function methodFlags(contract: Pick<TContract, 'METHODS'>): Record<string, object> {
  const table: Record<string, object> = {};
  for (const def of Object.values(contract.METHODS)) {
    const { hideError, hideLimit, limitType, keepDuplicates } = def;
    const flags = Object.fromEntries(
      Object.entries({ hideError, hideLimit, limitType, keepDuplicates }).filter(
        ([, value]) => value !== undefined,
      ),
    );
    if (Object.keys(flags).length > 0) table[def.name] = flags;
  }
  return table;
}

export function methodFlagsPlugin(): Plugin {
  return {
    name: 'rpc-console:method-flags',
    resolveId: (id) => (id === METHOD_FLAGS_MODULE ? RESOLVED_ID : undefined),
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      // The contract is TypeScript: Vite's module runner loads it (no config file: this plugin is in it).
      const { module } = await runnerImport<TContract>(CONTRACT_ENTRY, { configFile: false });
      return `export default ${JSON.stringify(methodFlags(module))};`;
    },
  };
}
