/** Turns the raw request body into JSON, refusing prototype-pollution keys before anything else sees them. */
import { ERROR_CODES } from '@rpc/contract';
import { RpcError } from './errors';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function parseRequestBody(raw: string): unknown {
  if (raw.trim() === '') throw new RpcError(ERROR_CODES.PARSE_ERROR);
  let forbidden: string | undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw, (key, v: unknown) => {
      // No method takes such keys; refusing them outright beats hoping every later merge is safe.
      if (FORBIDDEN_KEYS.has(key)) forbidden ??= key;
      return v;
    });
  } catch (cause) {
    throw new RpcError(ERROR_CODES.PARSE_ERROR, { cause });
  }
  if (forbidden !== undefined) {
    throw new RpcError(ERROR_CODES.INVALID_REQUEST, {
      details: [{ path: forbidden, message: 'forbidden key' }],
    });
  }
  return value;
}
