/** Which upstream group serves a call, from the key's settings and the call itself. Pure. */
import type { TKeyInfo } from './types';

export const ERC4337_METHODS = new Set([
  'eth_sendUserOperation',
  'eth_estimateUserOperationGas',
  'eth_getUserOperationByHash',
  'eth_getUserOperationReceipt',
  'eth_supportedEntryPoints',
]);

/** Position of the block parameter for methods that read state at a block. */
const BLOCK_PARAM: Record<string, number> = {
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_call: 1,
  eth_estimateGas: 1,
  eth_createAccessList: 1,
  eth_getProof: 2,
  eth_getBlockByNumber: 0,
  eth_getBlockReceipts: 0,
  eth_getBlockTransactionCountByNumber: 0,
  eth_getTransactionByBlockNumberAndIndex: 0,
  eth_getUncleByBlockNumberAndIndex: 0,
  eth_getUncleCountByBlockNumber: 0,
  trace_block: 0,
  trace_replayBlockTransactions: 0,
  debug_traceBlockByNumber: 0,
  debug_traceCall: 1,
};

/** Blocks older than head − this are "historical" and go to the archive group for archive-mode keys. */
export const ARCHIVE_DEPTH = 128;

function isHistoricalBlock(tag: unknown, head: number): boolean {
  if (tag === 'earliest') return true;
  if (typeof tag === 'string' && tag.startsWith('0x')) {
    const n = Number.parseInt(tag, 16);
    return head > 0 && Number.isFinite(n) && n < head - ARCHIVE_DEPTH;
  }
  if (tag && typeof tag === 'object') {
    const o = tag as { blockNumber?: unknown; blockHash?: unknown };
    if (o.blockNumber !== undefined) return isHistoricalBlock(o.blockNumber, head);
    // EIP-1898 by hash: its height is unknown without a lookup; the archive node answers either way.
    if (typeof o.blockHash === 'string') return true;
  }
  return false;
}

/** Whether a call reads state older than the full nodes keep. */
export function isHistorical(method: string, params: unknown, head: number): boolean {
  if (!Array.isArray(params)) return false;
  if (method === 'eth_getLogs') {
    const f = params[0] as { fromBlock?: unknown; blockHash?: unknown } | undefined;
    if (!f || typeof f !== 'object') return false;
    if (typeof f.blockHash === 'string') return false;
    return isHistoricalBlock(f.fromBlock, head);
  }
  const i = BLOCK_PARAM[method];
  return i !== undefined && isHistoricalBlock(params[i], head);
}

export type TRoute =
  { group: 'full' | 'archive' | 'mev' } | { group: 'bundler'; provider: TKeyInfo['bundler'] };

export function chooseRoute(
  key: Pick<TKeyInfo, 'archiveMode' | 'mev' | 'bundler'>,
  method: string,
  params: unknown,
  head: number,
): TRoute {
  if (ERC4337_METHODS.has(method)) return { group: 'bundler', provider: key.bundler };
  if (method === 'eth_sendRawTransaction' && key.mev !== '') return { group: 'mev' };
  if (key.archiveMode && isHistorical(method, params, head)) return { group: 'archive' };
  return { group: 'full' };
}

type TOriginParts = { scheme: string; hostname: string; host: string };

/** An Origin header's parts; undefined for anything that is not a bare scheme://host[:port] ('null', paths…). */
function parseOrigin(origin: string): TOriginParts | undefined {
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return undefined;
  }
  if (!u.hostname || u.username || u.password || u.search || u.hash) return undefined;
  if (origin.replace(/\/$/, '').toLowerCase() !== `${u.protocol}//${u.host}`) return undefined;
  return { scheme: u.protocol.slice(0, -1), hostname: u.hostname, host: u.host };
}

/**
 * Origin allowlist match on the parsed Origin: exact origin (`https://app.example.com`), host (`example.com`),
 * or wildcard subdomains (`*.example.com`, `https://*.example.com`); a rule with a port must match the port.
 */
export function isOriginAllowed(allow: string[], origin: string): boolean {
  if (allow.length === 0) return true;
  const o = parseOrigin(origin);
  if (!o) return false;
  for (const a of allow) {
    const rule = a.trim().toLowerCase();
    if (rule === '*') return true;
    const sep = rule.indexOf('://');
    const scheme = sep === -1 ? undefined : rule.slice(0, sep);
    if (scheme !== undefined && scheme !== o.scheme) continue;
    const pattern = (sep === -1 ? rule : rule.slice(sep + 3)).replace(/\/$/, '');
    const target = pattern.includes(':') ? o.host : o.hostname;
    if (pattern.startsWith('*.')) {
      const suffix = pattern.slice(1); // ".example.com"
      if (target.endsWith(suffix) && target.length > suffix.length) return true;
    } else if (pattern === target) return true;
  }
  return false;
}

function ipv4ToInt(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    const v = Number(p);
    if (!Number.isInteger(v) || v < 0 || v > 255 || p === '') return undefined;
    n = n * 256 + v;
  }
  return n;
}

/** IP allowlist match: exact addresses or IPv4 CIDR blocks; IPv4-mapped IPv6 (::ffff:1.2.3.4) counts as IPv4. */
export function isIpAllowed(allow: string[], rawIp: string): boolean {
  if (allow.length === 0) return true;
  const ip = rawIp.startsWith('::ffff:') ? rawIp.slice(7) : rawIp;
  const n = ipv4ToInt(ip);
  for (const rule of allow) {
    if (rule === ip || rule === rawIp) return true;
    const slash = rule.indexOf('/');
    if (slash !== -1 && n !== undefined) {
      const base = ipv4ToInt(rule.slice(0, slash));
      const bits = Number(rule.slice(slash + 1));
      if (base === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) continue;
      const size = 2 ** (32 - bits);
      if (Math.floor(n / size) === Math.floor(base / size)) return true;
    }
  }
  return false;
}
