/** The gateway's JSON-RPC errors: code, HTTP status and message in one place. */

export type TGatewayError = {
  status: number;
  code: number;
  message: string;
  retryAfterSec?: number;
};

/** Why a method is not forwarded at all: it administers the node, acts with the node's accounts, or is unlisted. */
export type TNotOffered = 'admin' | 'node-account' | 'unknown';

export const ERR = {
  parse: (detail: string): TGatewayError => ({
    status: 400,
    code: -32700,
    message: `parse error: ${detail}`,
  }),
  invalidRequest: (detail: string): TGatewayError => ({
    status: 400,
    code: -32600,
    message: `invalid request: ${detail}`,
  }),
  emptyBatch: (): TGatewayError => ({
    status: 400,
    code: -32600,
    message: 'invalid request: empty batch',
  }),
  batchTooLarge: (n: number, max: number): TGatewayError => ({
    status: 413,
    code: -32600,
    message: `batch of ${n} calls exceeds this key's limit of ${max} calls per batch (set by its tier)`,
  }),
  bodyTooLarge: (max: number): TGatewayError => ({
    status: 413,
    code: -32600,
    message: `request body exceeds ${max} bytes`,
  }),
  unsupportedEncoding: (enc: string): TGatewayError => ({
    status: 415,
    code: -32600,
    message: `unsupported content-encoding '${enc}' (use gzip or none)`,
  }),
  methodNotAllowedHttp: (): TGatewayError => ({
    status: 405,
    code: -32600,
    message: 'use POST for JSON-RPC (or a WebSocket upgrade)',
  }),
  notFound: (): TGatewayError => ({
    status: 404,
    code: -32601,
    message:
      'not found: the endpoint is /v1/{chain}/{apiKey} (or /dn/{nodeId}/{apiKey} for a dedicated node)',
  }),
  unknownChain: (chain: string): TGatewayError => ({
    status: 404,
    code: -32001,
    message: `unknown chain '${chain}'`,
  }),
  chainUnavailable: (chain: string): TGatewayError => ({
    status: 503,
    code: -32002,
    message: `chain '${chain}' is not available on this gateway (no upstream configured)`,
  }),
  unknownDnNode: (): TGatewayError => ({
    status: 404,
    code: -32001,
    message:
      'unknown dedicated node for this API key (the endpoint is /dn/{nodeId}/{apiKey} with a key of its owner)',
  }),
  dnNodeNotServing: (): TGatewayError => ({
    status: 503,
    code: -32002,
    message:
      'this dedicated node is not serving now (starting, stopped or expired); see the console',
  }),
  invalidKey: (): TGatewayError => ({
    status: 401,
    code: -32003,
    message: 'invalid API key (unknown or deleted)',
  }),
  pausedKey: (): TGatewayError => ({
    status: 403,
    code: -32004,
    message: 'this API key is paused',
  }),
  originDenied: (origin: string): TGatewayError => ({
    status: 403,
    code: -32004,
    message: `origin '${origin}' is not in this key's allowlist`,
  }),
  ipDenied: (ip: string): TGatewayError => ({
    status: 403,
    code: -32004,
    message: `IP ${ip} is not in this key's allowlist`,
  }),
  methodDenied: (method: string): TGatewayError => ({
    status: 403,
    code: -32004,
    message: `method '${method}' is not in this key's allowlist`,
  }),
  contractDenied: (addr: string): TGatewayError => ({
    status: 403,
    code: -32004,
    message: `contract ${addr} is not in this key's allowlist`,
  }),
  /** A call the contract allowlist cannot check (no address to compare, creation, undecodable); see method-policy.ts. */
  contractUnchecked: (method: string, reason: string): TGatewayError => ({
    status: 403,
    code: -32004,
    message: `${method} cannot be checked against this key's contract allowlist: ${reason}`,
  }),
  /** Not in the method catalogue (method-policy.ts): node administration, the node's own accounts, or unlisted. */
  methodNotOffered: (method: string, reason: TNotOffered): TGatewayError => ({
    status: 400,
    code: -32601,
    message:
      reason === 'admin'
        ? `method '${method}' is not offered: node administration methods are never forwarded`
        : reason === 'node-account'
          ? `method '${method}' is not offered: the gateway holds no accounts; sign locally and send with eth_sendRawTransaction`
          : `method '${method}' is not offered by this gateway (hub_getRuTable lists the methods it serves)`,
  }),
  unsupportedMethod: (method: string, chain: string): TGatewayError => ({
    status: 400,
    code: -32601,
    message: `method '${method}' is not supported on chain '${chain}' for this key's settings`,
  }),
  rateLimited: (message: string, retryAfterSec: number): TGatewayError => ({
    status: 429,
    code: -32005,
    message,
    retryAfterSec,
  }),
  noRu: (): TGatewayError => ({
    status: 402,
    code: -32006,
    message:
      'API service is paused: the account has no RU left; top up or buy an RU package in the console',
  }),
  upstreamUnavailable: (): TGatewayError => ({
    status: 502,
    code: -32010,
    message: 'no upstream node answered; try again',
  }),
} as const;

export function errorObject(id: unknown, e: TGatewayError): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: id ?? null,
    error: { code: e.code, message: e.message },
  });
}
