/**
 * The gateway's AccountBalance: RU budgets in memory (no I/O on the hot path; RuBudget holds each admitted call's
 * estimate until it is settled), re-synced from accounts.ru_balance (the ledger's cache) after every usage flush
 * and periodically. RUs charged here but not yet in a written batch are tracked per account and kept subtracted
 * across re-syncs, so a re-sync never hands back RUs that are already spent.
 */
import { accounts, type TDatabase, spendableRu } from '@rpc/db';
import { RuBudget, type AccountBalance } from '@rpc/gateway';
import { inArray } from 'drizzle-orm';

export type TBalanceCrossing = (accountId: string, balance: number) => void;

/** An account's ledger state right after a usage batch: its cached balance and the count of entries behind it. */
export type TAccountState = { ruBalance: number; ruVersion: number };

/** What the DB wiring needs of a balance: the embedded one below, or RedisLeasedBalance in scale mode. */
export type TGatewayBalance = AccountBalance & {
  /** A loaded key's account (with its balance as read). */
  seen(accountId: string, ruBalance: number): void;
  /** A usage batch is in the ledger: these RUs per account, leaving the accounts in `states`. */
  settled(
    ruByAccount: Map<string, number>,
    states: Map<string, TAccountState>,
  ): void | Promise<void>;
  /** Re-reads balances changed by other writers (purchases, gifts, other processes). */
  resync(accountIds?: string[]): Promise<void>;
  /** What this process may still spend for an account (tests). */
  get(accountId: string): number | undefined;
  start?(): Promise<void>;
  /** Resolves once the accounts seen so far can spend here (scale mode: their first leases granted). */
  ready?(): Promise<void>;
  stop?(): Promise<void>;
};

export class DbAccountBalance extends RuBudget implements TGatewayBalance {
  /** RUs charged in this process whose usage batch is not written yet. */
  private readonly unflushed = new Map<string, number>();

  constructor(
    private readonly db: TDatabase,
    private readonly lowRuThreshold: number,
    /** Called when a re-sync after usage finds an account at or under the threshold. */
    private readonly onLow: TBalanceCrossing = () => {},
  ) {
    super();
  }

  protected override charged(accountId: string, ru: number): void {
    this.unflushed.set(accountId, (this.unflushed.get(accountId) ?? 0) + ru);
  }

  /**
   * A batch carrying these RUs is in the database now (written, or found written before): the balance becomes the
   * ledger's, minus what this process charged since that the ledger has not seen yet.
   */
  settled(ruByAccount: Map<string, number>, states: Map<string, TAccountState>): void {
    for (const [accountId, ru] of ruByAccount) {
      const left = (this.unflushed.get(accountId) ?? 0) - ru;
      if (left > 0) this.unflushed.set(accountId, left);
      else this.unflushed.delete(accountId);
    }
    for (const [accountId, s] of states) {
      this.set(accountId, s.ruBalance - (this.unflushed.get(accountId) ?? 0));
      if (s.ruBalance <= this.lowRuThreshold) this.onLow(accountId, s.ruBalance);
    }
  }

  /** What this process may still spend, not counting holds (tests compare it with the ledger). */
  get(accountId: string): number | undefined {
    return this.spendable.get(accountId);
  }

  /** Key loading tells us about accounts; a known account keeps its (more current) in-memory value. */
  seen(accountId: string, ruBalance: number): void {
    if (!this.spendable.has(accountId)) this.spendable.set(accountId, ruBalance);
  }

  /** Replaces the cached balances of `accountIds` (all known accounts when absent) with the database's. */
  async resync(accountIds?: string[]): Promise<void> {
    // (periodic: no low-balance check; that runs after usage, in settled)
    const ids = accountIds ?? [...this.spendable.keys()];
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      const rows = await this.db
        .select({ id: accounts.id, ruBalance: spendableRu })
        .from(accounts)
        .where(inArray(accounts.id, chunk));
      for (const r of rows) {
        this.set(r.id, r.ruBalance - (this.unflushed.get(r.id) ?? 0));
      }
    }
  }
}
