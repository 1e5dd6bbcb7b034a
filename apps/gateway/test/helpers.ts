/** Test helpers: keys, a counting pass-through upstream, JSON-RPC over fetch. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TKeyInfo } from '../src/types';

let seq = 0;

export function makeKey(overrides: Partial<TKeyInfo> = {}): TKeyInfo {
  seq += 1;
  return {
    key: `test-key-${seq}-${Math.random().toString(36).slice(2)}`,
    keyId: `kid-${seq}`,
    accountId: `acc-${seq}`,
    paused: false,
    archiveMode: false,
    mev: '',
    bundler: 'default',
    allowlists: { origins: [], ips: [], contracts: [], methods: [] },
    tier: { reqPerSec: 1000, ruPerSec: 100_000, concurrency: 100 },
    ...overrides,
  };
}

export type TCountingProxy = { url: string; hits: string[]; close: () => Promise<void> };

/** A pass-through upstream that records every method it forwards (to see which group a call went to). */
export async function startCountingProxy(target: string, delayMs = 0): Promise<TCountingProxy> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const parsed = JSON.parse(body) as { method: string } | { method: string }[];
      for (const c of Array.isArray(parsed) ? parsed : [parsed])
        if (c.method !== 'eth_blockNumber') hits.push(c.method);
      new Promise((r) => setTimeout(r, delayMs))
        .then(() =>
          fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
        )
        .then(async (r) =>
          res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text()),
        )
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type TRpcReply = { status: number; headers: Headers; body: unknown; text: string };

export async function rpc(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<TRpcReply> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export const call = (method: string, params: unknown[] = [], id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port free right now on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = http.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
