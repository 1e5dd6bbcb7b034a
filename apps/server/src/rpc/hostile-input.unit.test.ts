import { describe, expect, it } from 'vitest';
import { parseRequestBody } from './parse-body';
import { findHostileInput } from './hostile-input';

describe('findHostileInput', () => {
  it.each([
    ['plain values', { a: 'x', b: [1, 'y'], c: { d: null } }, null],
    ['a nul in a nested string', { a: { b: ['ok', 'x\u0000'] } }, 'a.b.1'],
    ['a nul in a key', { 'k\u0000': 1 }, '(root)'],
  ])('%s', (_n, value, path) => {
    expect(findHostileInput(value)?.path ?? null).toBe(path);
  });

  it('stops at absurd nesting without overflowing the stack', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
    expect(findHostileInput(deep)?.message).toBe('nested too deeply');
  });
});

describe('parseRequestBody', () => {
  it.each(['', '   ', '{', 'undefined', "{'a':1}"])('refuses %j as not JSON (10001)', (raw) => {
    expect(() => parseRequestBody(raw)).toThrowError(expect.objectContaining({ code: 10001 }));
  });
  it('refuses pollution keys at any depth (10002)', () => {
    expect(() => parseRequestBody('{"a":[{"b":{"__proto__":1}}]}')).toThrowError(
      expect.objectContaining({ code: 10002 }),
    );
  });
  it('parses ordinary JSON', () => {
    expect(parseRequestBody('{"method":"m","params":[{}],"id":1}')).toEqual({
      method: 'm',
      params: [{}],
      id: 1,
    });
  });
});
