/** The request client's flag table (method-flags-plugin.ts) says what the contract says, method by method. */
import { METHODS } from '@rpc/contract';
import METHOD_FLAGS from 'virtual:rpc-method-flags';
import { describe, expect, it } from 'vitest';

describe('virtual:rpc-method-flags', () => {
  it.each(Object.values(METHODS).map((def) => [def.name, def] as const))('%s', (name, def) => {
    const flags = METHOD_FLAGS[name] ?? {};
    expect(flags.hideError).toBe(def.hideError);
    expect(flags.hideLimit).toBe(def.hideLimit);
    expect(flags.limitType).toBe(def.limitType);
    expect(flags.keepDuplicates).toBe(def.keepDuplicates);
  });

  it('has no method the contract lacks', () => {
    expect(Object.keys(METHOD_FLAGS).filter((name) => !(name in METHODS))).toEqual([]);
  });
});
