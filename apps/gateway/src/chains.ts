/** The chain catalogue: config/chains.json with upstream URLs resolved from the environment. */
import chainsJson from '../config/chains.json' with { type: 'json' };
import type { TBundler } from './types';
import { BUNDLERS } from './types';

export type TChainFeature = 'archive' | 'mev' | 'bundler';

type TRawGroups = {
  full: string[];
  archive: string[];
  mev: string[];
  bundler: Partial<Record<TBundler, string[]>>;
};

type TRawChain = {
  id: string;
  name: string;
  network: string;
  chainId: number | null;
  icon: string;
  ruMultiplier: number;
  features: string[];
  http: TRawGroups;
  ws: { full: string[] };
};

export type TUpstreamGroups = {
  full: string[];
  archive: string[];
  mev: string[];
  bundler: Record<TBundler, string[]>;
};

export type TChain = {
  id: string;
  name: string;
  network: 'mainnet' | 'testnet';
  chainId: number | null;
  icon: string;
  ruMultiplier: number;
  features: TChainFeature[];
  http: TUpstreamGroups;
  ws: string[];
  /** True when at least one full HTTP upstream is configured. */
  available: boolean;
};

/** What the console may show about a chain (no upstream URLs: they can carry provider secrets). */
export type TChainInfo = Pick<
  TChain,
  'id' | 'name' | 'network' | 'chainId' | 'icon' | 'ruMultiplier' | 'features' | 'available'
> & { bundlers: TBundler[]; hasArchive: boolean; hasMev: boolean };

type TEnv = Record<string, string | undefined>;

/** `https://…` as is; `env:NAME|default` → the comma-separated URLs in $NAME, else the default, else none. */
export function resolveUpstreams(entries: string[], env: TEnv): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    if (!entry.startsWith('env:')) {
      out.push(entry);
      continue;
    }
    const [name = '', fallback] = entry.slice(4).split('|');
    const value = env[name]?.trim() || fallback || '';
    for (const url of value.split(',')) if (url.trim()) out.push(url.trim());
  }
  return out;
}

function resolveChain(raw: TRawChain, env: TEnv): TChain {
  const bundler = {} as Record<TBundler, string[]>;
  for (const b of BUNDLERS) bundler[b] = resolveUpstreams(raw.http.bundler[b] ?? [], env);
  const http: TUpstreamGroups = {
    full: resolveUpstreams(raw.http.full, env),
    archive: resolveUpstreams(raw.http.archive, env),
    mev: resolveUpstreams(raw.http.mev, env),
    bundler,
  };
  return {
    id: raw.id,
    name: raw.name,
    network: raw.network === 'mainnet' ? 'mainnet' : 'testnet',
    chainId: raw.chainId,
    icon: raw.icon,
    ruMultiplier: raw.ruMultiplier,
    features: raw.features.filter(
      (f): f is TChainFeature => f === 'archive' || f === 'mev' || f === 'bundler',
    ),
    http,
    ws: resolveUpstreams(raw.ws.full, env),
    available: http.full.length > 0,
  };
}

/** The catalogue with URLs resolved from `env` (process.env by default). */
export function loadChains(env: TEnv = process.env): TChain[] {
  return (chainsJson.chains as TRawChain[]).map((c) => resolveChain(c, env));
}

/** The public view the console's hub_getSupportChains serves. */
export function listChains(chains: TChain[] = loadChains()): TChainInfo[] {
  return chains.map((c) => ({
    id: c.id,
    name: c.name,
    network: c.network,
    chainId: c.chainId,
    icon: c.icon,
    ruMultiplier: c.ruMultiplier,
    features: c.features,
    available: c.available,
    hasArchive: c.http.archive.length > 0,
    hasMev: c.http.mev.length > 0,
    bundlers: BUNDLERS.filter((b) => c.http.bundler[b].length > 0),
  }));
}

/** A copy of `chain` with its upstreams replaced (tests and `npm start` point localnet at the node they started). */
export function withUpstreams(
  chain: TChain,
  http: Partial<TUpstreamGroups>,
  ws?: string[],
): TChain {
  const merged = { ...chain.http, ...http };
  return { ...chain, http: merged, ws: ws ?? chain.ws, available: merged.full.length > 0 };
}
