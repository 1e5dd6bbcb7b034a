/**
 * The gateway's AccountBalance: RU balances in memory (no I/O on the hot path), decremented as calls are
 * charged, re-synced from accounts.ru_balance (the ledger's cache) after every usage flush and periodically.
 * RUs charged here but not yet in a written batch are tracked per account and kept subtracted across re-syncs,
 * so a re-sync never hands back RUs that are already spent.
 */
import { accounts, type TDatabase } from '@rpc/db';
import type { AccountBalance } from '@rpc/gateway';
import { inArray } from 'drizzle-orm';

export type TBalanceCrossing = (accountId: string, balance: number) => void;

export class DbAccountBalance implements AccountBalance {
  private readonly balances = new Map<string, number>();
  /** RUs consumed in this process whose usage batch is not written yet. */
  private readonly unflushed = new Map<string, number>();

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
    this.unflushed.set(accountId, (this.unflushed.get(accountId) ?? 0) + ru);
  }

  /** A batch carrying these RUs is in the database now (written, or found written before). */
  settled(ruByAccount: Map<string, number>): void {
    for (const [accountId, ru] of ruByAccount) {
      const left = (this.unflushed.get(accountId) ?? 0) - ru;
      if (left > 0) this.unflushed.set(accountId, left);
      else this.unflushed.delete(accountId);
    }
  }

  /** What the cache holds now (tests compare it with the ledger). */
  get(accountId: string): number | undefined {
    return this.balances.get(accountId);
  }

  /** Key loading tells us about accounts; a known account keeps its (more current) in-memory value. */
  seen(accountId: string, ruBalance: number): void {
    if (!this.balances.has(accountId)) this.balances.set(accountId, ruBalance);
  }

  /** Replaces the cached balances of `accountIds` (all known accounts when absent) with the database's. */
  async resync(accountIds?: string[]): Promise<void> {
    const ids = accountIds ?? [...this.balances.keys()];
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      const rows = await this.db
        .select({ id: accounts.id, ruBalance: accounts.ruBalance })
        .from(accounts)
        .where(inArray(accounts.id, chunk));
      for (const r of rows) {
        this.balances.set(r.id, r.ruBalance - (this.unflushed.get(r.id) ?? 0));
        // Only after a usage flush (ids given): the account just spent RUs. The notifier dedupes per day.
        if (accountIds !== undefined && r.ruBalance <= this.lowRuThreshold)
          this.onLow(r.id, r.ruBalance);
      }
    }
  }
}
