/**
 * API keys at rest: AES-256-GCM ciphertext (the console shows a key to its owner again) and an HMAC-SHA-256 lookup
 * hash (unique, and how a key is found by its value), both under keys derived from API_KEY_SECRET with HKDF.
 * Why encryption rather than show-once hashing: docs/decisions/api-key-storage.md.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  type BinaryLike,
} from 'node:crypto';

export const MIN_API_KEY_SECRET_LENGTH = 32;

const FORMAT = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A missing, short or wrong secret, or a key that does not open with it: the process must not start. */
export class ApiKeySecretError extends Error {
  override name = 'ApiKeySecretError';
}

export type TApiKeyCipher = {
  /** Names the secret without revealing it (HKDF output); stored once per database to refuse another secret. */
  readonly fingerprint: string;
  /** HMAC-SHA-256 of the key, hex. */
  hash: (key: string) => string;
  /** 'v1:' + base64url(random 96-bit IV ‖ ciphertext ‖ 128-bit tag); the row id is authenticated data. */
  seal: (keyId: string, key: string) => string;
  /** The key again; throws ApiKeySecretError if the secret is not the one it was sealed with, or the data changed. */
  open: (keyId: string, sealed: string) => string;
};

function derive(secret: BinaryLike, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, '', `rpc-console api-key ${purpose} v1`, 32));
}

/** The row id as authenticated data: a ciphertext copied into another row does not open there. */
function aad(keyId: string): Buffer {
  return Buffer.from(`api_keys:${keyId}`, 'utf8');
}

export function createApiKeyCipher(secret: string): TApiKeyCipher {
  if (secret.length < MIN_API_KEY_SECRET_LENGTH)
    throw new ApiKeySecretError(
      `API_KEY_SECRET must be at least ${MIN_API_KEY_SECRET_LENGTH} characters`,
    );
  const ikm = Buffer.from(secret, 'utf8');
  const encryptionKey = derive(ikm, 'encryption');
  const lookupKey = derive(ikm, 'lookup');
  const fingerprint = derive(ikm, 'fingerprint').toString('hex');

  return {
    fingerprint,
    hash: (key) => createHmac('sha256', lookupKey).update(key, 'utf8').digest('hex'),
    seal: (keyId, key) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aad(keyId));
      const body = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
      return FORMAT + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
    },
    open: (keyId, sealed) => {
      const raw = sealed.startsWith(FORMAT)
        ? Buffer.from(sealed.slice(FORMAT.length), 'base64url')
        : Buffer.alloc(0);
      if (raw.length <= IV_BYTES + TAG_BYTES)
        throw new ApiKeySecretError(`API key ${keyId}: stored value is not a sealed key`);
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, raw.subarray(0, IV_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(aad(keyId));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      try {
        return Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new ApiKeySecretError(
          `API key ${keyId} does not decrypt: API_KEY_SECRET is not the secret it was stored with, or the row was altered`,
        );
      }
    },
  };
}
