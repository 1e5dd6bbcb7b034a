/**
 * The gateway's AccountBalance: RU balances in memory (no I/O on the hot path), decremented as calls are
 * charged, re-synced from accounts.ru_balance (the ledger's cache) after every usage flush and periodically.
 */
import { accounts, type TDatabase } from '@rpc/db';
import type { AccountBalance } from '@rpc/gateway';
import { inArray } from 'drizzle-orm';

export type TBalanceCrossing = (accountId: string, balance: number) => void;

export class DbAccountBalance implements AccountBalance {
  private readonly balances = new Map<string, number>();

  constructor(
    private readonly db: TDatabase,
    private readonly lowRuThreshold: number,
    /** Called when a re-sync after usage finds an account at or under the threshold. */
    private readonly onLow: TBalanceCrossing = () => {},
  ) {}

  hasRu(accountId: string): boolean {
    return (this.balances.get(accountId) ?? 0) > 0;
  }

  consume(accountId: string, ru: number): void {
    const current = this.balances.get(accountId);
    if (current !== undefined) this.balances.set(accountId, current - ru);
  }

  /** What the cache holds now (tests compare it with the ledger). */
  get(accountId: string): number | undefined {
    return this.balances.get(accountId);
  }

  /** Key loading tells us about accounts; a known account keeps its (more current) in-memory value. */
  seen(accountId: string, ruBalance: number): void {
    if (!this.balances.has(accountId)) this.balances.set(accountId, ruBalance);
  }

  /**
   * Replaces the cached balances of `accountIds` (all known accounts when absent) with the database's.
   * Calls charged but not yet flushed are not subtracted: they are at most one flush interval's worth.
   */
  async resync(accountIds?: string[]): Promise<void> {
    const ids = accountIds ?? [...this.balances.keys()];
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      const rows = await this.db
        .select({ id: accounts.id, ruBalance: accounts.ruBalance })
        .from(accounts)
        .where(inArray(accounts.id, chunk));
      for (const r of rows) {
        this.balances.set(r.id, r.ruBalance);
        // Only after a usage flush (ids given): the account just spent RUs. The notifier dedupes per day.
        if (accountIds !== undefined && r.ruBalance <= this.lowRuThreshold)
          this.onLow(r.id, r.ruBalance);
      }
    }
  }
}
