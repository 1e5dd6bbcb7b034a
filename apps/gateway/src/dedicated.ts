/**
 * Dedicated nodes at /dn/{nodeId}/{apiKey}: the node store's routes turned into what the call pipeline uses — a
 * chain of the node's own (id `dn:<nodeId>`, so usage, refusals and the WebSocket upstream are per node) with one
 * full-node upstream. Kept per node and rebuilt only when the node moves to another address; a node that left the
 * store releases its connection pool at the next prune.
 */
import type { TChain } from './chains';
import type { TChainUpstreams, UpstreamSet } from './upstreams';
import { BUNDLERS, type DnNodeStore, type TBundler, type TDnRoute } from './types';

type TResolved = { http: string; ws: string | null; chain: TChain; ups: TChainUpstreams };

const NO_BUNDLERS = Object.freeze(
  Object.fromEntries(BUNDLERS.map((b) => [b, []])) as unknown as Record<TBundler, string[]>,
);

export const emptyDnStore: DnNodeStore = { get: () => undefined };

export class DedicatedRoutes {
  private readonly resolved = new Map<string, TResolved>();

  constructor(
    private readonly store: DnNodeStore,
    private readonly upstreams: UpstreamSet,
    private readonly chains: Map<string, TChain>,
  ) {}

  get(nodeId: string): TDnRoute | undefined {
    return this.store.get(nodeId);
  }

  resolve(node: TDnRoute): { chain: TChain; ups: TChainUpstreams } {
    const known = this.resolved.get(node.nodeId);
    if (known && known.http === node.http && known.ws === node.ws) return known;
    if (known) this.upstreams.releaseDedicated(known.http);
    const base = this.chains.get(node.chain);
    const ws = node.ws ? [node.ws] : [];
    const chain: TChain = {
      id: `dn:${node.nodeId}`,
      name: base?.name ?? node.chain,
      network: base?.network ?? 'mainnet',
      chainId: base?.chainId ?? null,
      icon: base?.icon ?? '',
      ruMultiplier: base?.ruMultiplier ?? 1,
      features: [],
      http: { full: [node.http], archive: [], mev: [], bundler: NO_BUNDLERS },
      ws,
      available: true,
    };
    const entry: TResolved = {
      http: node.http,
      ws: node.ws,
      chain,
      ups: this.upstreams.dedicated(node.http, ws),
    };
    this.resolved.set(node.nodeId, entry);
    return entry;
  }

  /** Lets go of nodes the store no longer has, or that moved (their pools close). */
  prune(): void {
    for (const [nodeId, r] of this.resolved) {
      const now = this.store.get(nodeId);
      if (now && now.http === r.http && now.ws === r.ws) continue;
      this.resolved.delete(nodeId);
      this.upstreams.releaseDedicated(r.http);
    }
  }
}
