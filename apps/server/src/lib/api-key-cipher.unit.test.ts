import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { ApiKeySecretError, createApiKeyCipher } from './api-key-cipher';

const SECRET = 'unit-test-secret-0123456789abcdef-0123';
const OTHER = 'unit-test-secret-fedcba9876543210-3210';
const key = randomBytes(32).toString('hex');
const id = randomUUID();

describe('createApiKeyCipher', () => {
  const cipher = createApiKeyCipher(SECRET);

  it('seals a key into versioned ciphertext that does not contain it, and opens it again', () => {
    const sealed = cipher.seal(id, key);
    expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(key);
    expect(Buffer.from(sealed.slice(3), 'base64url').toString('hex')).not.toContain(key);
    expect(cipher.open(id, sealed)).toBe(key);
  });

  it('uses a fresh IV each time: the same key seals differently', () => {
    expect(cipher.seal(id, key)).not.toBe(cipher.seal(id, key));
  });

  it('hashes deterministically under the secret (a lookup key), differently under another', () => {
    expect(cipher.hash(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(cipher.hash(key)).toBe(createApiKeyCipher(SECRET).hash(key));
    expect(cipher.hash(key)).not.toBe(createApiKeyCipher(OTHER).hash(key));
  });

  it('names the secret by a stable fingerprint that is neither the secret nor the hash key', () => {
    expect(cipher.fingerprint).toBe(createApiKeyCipher(SECRET).fingerprint);
    expect(cipher.fingerprint).not.toBe(createApiKeyCipher(OTHER).fingerprint);
    expect(cipher.fingerprint).not.toContain(Buffer.from(SECRET).toString('hex'));
  });

  it.each([
    ['another secret', () => createApiKeyCipher(OTHER).open(id, cipher.seal(id, key))],
    ['another row', () => cipher.open(randomUUID(), cipher.seal(id, key))],
    [
      'a changed byte',
      () => {
        const raw = Buffer.from(cipher.seal(id, key).slice(3), 'base64url');
        raw[20]! ^= 1;
        return cipher.open(id, `v1:${raw.toString('base64url')}`);
      },
    ],
    ['plain text', () => cipher.open(id, key)],
    ['an empty value', () => cipher.open(id, 'v1:')],
  ])('refuses to open under %s', (_label, open) => {
    expect(open).toThrowError(ApiKeySecretError);
  });

  it('refuses a secret under 32 characters', () => {
    expect(() => createApiKeyCipher('x'.repeat(31))).toThrowError(/at least 32 characters/);
  });
});

describe('API_KEY_SECRET in the environment', () => {
  it('is optional and must be at least 32 characters; the error does not echo it', () => {
    expect(parseEnv({}).API_KEY_SECRET).toBeUndefined();
    expect(parseEnv({ API_KEY_SECRET: SECRET }).API_KEY_SECRET).toBe(SECRET);
    const short = 'short-secret-value';
    expect(() => parseEnv({ API_KEY_SECRET: short })).toThrowError(/API_KEY_SECRET/);
    try {
      parseEnv({ API_KEY_SECRET: short });
    } catch (err) {
      expect((err as Error).message).not.toContain(short);
    }
  });
});
