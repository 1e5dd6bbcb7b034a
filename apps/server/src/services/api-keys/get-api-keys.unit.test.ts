import { describe, expect, it } from 'vitest';
import { escapeLike } from './get-api-keys';

describe('escapeLike', () => {
  it.each([
    ['plain', 'plain'],
    ['50%', '50\\%'],
    ['a_b', 'a\\_b'],
    ['back\\slash', 'back\\\\slash'],
    ['%_\\', '\\%\\_\\\\'],
  ])('%s → %s', (input, escaped) => {
    expect(escapeLike(input)).toBe(escaped);
  });
});
