import { METHOD_NAMES, METHODS } from '@rpc/contract';
import { describe, expect, it } from 'vitest';
import { HANDLERS } from './handlers';

describe('handler registry', () => {
  it.each(METHOD_NAMES)('%s has a handler whose auth matches the contract', (name) => {
    const handler = HANDLERS[name];
    expect(handler.name).toBe(name);
    expect(handler.auth).toBe(METHODS[name].auth);
  });
});
