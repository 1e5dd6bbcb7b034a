/**
 * Which filters each key created through this process (eth_new*Filter answers), so a key with a contract
 * allowlist may poll its own filters and no one else's. Bounded per key; entries expire after the nodes' own
 * filter timeout (5 minutes without a poll).
 */
import type { TFilterOwners } from './method-policy';

export const FILTER_METHODS = new Set([
  'eth_newFilter',
  'eth_newBlockFilter',
  'eth_newPendingTransactionFilter',
]);

export class FilterOwners implements TFilterOwners {
  private readonly byKey = new Map<string, Map<string, number>>();

  constructor(
    private readonly ttlMs = 5 * 60_000,
    private readonly perKey = 256,
    private readonly now: () => number = Date.now,
  ) {}

  owns(keyId: string, filterId: string): boolean {
    const filters = this.byKey.get(keyId);
    const id = filterId.toLowerCase();
    const last = filters?.get(id);
    if (filters === undefined || last === undefined) return false;
    if (this.now() - last > this.ttlMs) {
      filters.delete(id);
      return false;
    }
    // Re-inserted: the map's order stays least recently used first.
    filters.delete(id);
    filters.set(id, this.now());
    return true;
  }

  add(keyId: string, filterId: string): void {
    let filters = this.byKey.get(keyId);
    if (!filters) this.byKey.set(keyId, (filters = new Map()));
    filters.delete(filterId.toLowerCase());
    filters.set(filterId.toLowerCase(), this.now());
    if (filters.size > this.perKey) {
      const oldest = filters.keys().next().value;
      if (oldest !== undefined) filters.delete(oldest);
    }
  }
}
